// sources/openSource: the source a --source names: a postgres:// (or postgresql://) URL is PostgreSQL, anything else
// a file path, `-` or a stream. Checked without a database: a URL is opened as PostgreSQL (a bad relation name is a
// usage error before anything connects; a database that does not answer is named without its password), a path
// as a file.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { UsageError } from '../../../../indexer/errors.js';
import { EXIT_CODES } from '../../../../indexer/exitCodes.js';
import { FileSource } from '../../../../indexer/sources/fileSource.js';
import { isPostgresUrl, openRecordSource } from '../../../../indexer/sources/openSource.js';
import { SourceError } from '../../../../indexer/sources/sourceErrors.js';
import { ndjsonText, ppaRecord } from '../../../support/ppaRecords.js';
import { rejectionOf } from '../../../support/rejection.js';
import { freePort } from '../../../../tools/services/net.js';

describe('indexer/sources/openSource', () => {
  it('takes postgres:// and postgresql:// URLs, in any case, for PostgreSQL and nothing else', () => {
    for (const url of ['postgres://db/ppas', 'postgresql://u:p@db:5432/ppas', 'POSTGRES://db/x'])
      expect(isPostgresUrl(url), url).to.equal(true);
    for (const other of [
      '-',
      'data/ppas.ndjson',
      './postgres://x',
      'http://db',
      Readable.from([]),
      undefined,
    ])
      expect(isPostgresUrl(other), String(other)).to.equal(false);
  });

  it('opens a file path as a file source', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'indexer-open-source-'));
    try {
      const path = join(dir, 'records.ndjson');
      await writeFile(path, ndjsonText([ppaRecord('a')]));
      const source = await openRecordSource(path);
      expect(source).to.be.instanceOf(FileSource);
      expect(source.format).to.equal('ndjson');
      await source.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('opens a URL as PostgreSQL: a bad relation is refused before connecting, an absent database named', async () => {
    const relation = await rejectionOf<Error>(
      openRecordSource('postgres://127.0.0.1:1/ppas', { relation: 'ppas; drop' }),
    );
    // PostgreSQL's module is loaded by a dynamic import, which under mocha and tsx is a second copy of the
    // indexer's modules: its errors are told by name and exit code, not by instanceof.
    expect(relation).to.have.property('exitCode', EXIT_CODES.usage);
    expect(relation.constructor.name).to.equal(UsageError.name);
    expect(String(relation)).to.include('--relation must be NAME or SCHEMA.NAME');

    const port = await freePort();
    const absent = await rejectionOf<Error>(
      openRecordSource(`postgresql://indexer:secret@127.0.0.1:${port}/ppas`),
    );
    expect(absent.constructor.name).to.equal(SourceError.name);
    expect(absent).to.have.property('exitCode', EXIT_CODES.usage);
    expect(String(absent)).to.include(`the PostgreSQL source 127.0.0.1:${port}/ppas cannot be read`);
    expect(String(absent)).to.not.include('secret');
  });
});
