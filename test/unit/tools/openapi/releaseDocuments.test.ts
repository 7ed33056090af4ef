import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  compareVersions,
  lastStoredRelease,
  readReleaseDocument,
  releaseDocumentPath,
  storedReleases,
  writeReleaseDocument,
} from '../../../../tools/openapi/releaseDocuments.js';

describe('openapi: the release documents kept', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-releases-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('orders versions as numbers', () => {
    expect(['0.10.0', '0.9.1', '1.0.0', '0.9.0'].sort(compareVersions)).to.deep.equal([
      '0.9.0',
      '0.9.1',
      '0.10.0',
      '1.0.0',
    ]);
    expect(() => compareVersions('0.3', '0.3.0')).to.throw('not a release version');
  });

  it('lists the versions kept, the last one last, other files left out', async () => {
    for (const file of ['0.9.0.json', '0.10.0.json', 'notes.md']) await writeFile(join(dir, file), '{}');
    expect(storedReleases(dir)).to.deep.equal(['0.9.0', '0.10.0']);
    expect(lastStoredRelease(dir)).to.equal('0.10.0');
    expect(storedReleases(join(dir, 'none'))).to.deep.equal([]);
  });

  it('writes a document once, and again only when told to', async () => {
    const path = await writeReleaseDocument('1.2.3', { openapi: '3.1.0' }, { dir });
    expect(path).to.equal(join(dir, '1.2.3.json'));
    expect(readReleaseDocument('1.2.3', dir)).to.deep.equal({ openapi: '3.1.0' });
    let refused: unknown;
    await writeReleaseDocument('1.2.3', { openapi: '3.2.0' }, { dir }).catch(
      (error: unknown) => (refused = error),
    );
    expect(String(refused)).to.include('is kept as released');
    await writeReleaseDocument('1.2.3', { openapi: '3.2.0' }, { dir, overwrite: true });
    expect(readReleaseDocument('1.2.3', dir)).to.deep.equal({ openapi: '3.2.0' });
  });

  it('keeps the repository’s documents as written: two-space JSON and a newline, of their own version', () => {
    for (const version of storedReleases()) {
      const document = readReleaseDocument(version);
      expect((document.info as { version: string }).version, version).to.equal(version);
      const text = readFileSync(releaseDocumentPath(version), 'utf8');
      expect(text === `${JSON.stringify(document, null, 2)}\n`, `${version}: as written`).to.equal(true);
    }
  });
});
