// sources/fileSource: a file (NDJSON or a JSON array) or a stream spooled to a temporary file, read twice. Checked:
// the format found from the first character (a BOM and blank space before it ignored), its size as the pass's total,
// a stream readable twice and its spool removed on close while a named file is kept, a missing file or a directory
// refused with its path before anything is read, and a change between passes found by size, time or inode.
import { expect } from 'chai';
import { mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceChangedError } from '../../../../indexer/errors.js';
import { FileSource } from '../../../../indexer/sources/fileSource.js';
import type { SourceItem } from '../../../../indexer/sources/source.js';
import { SourceError } from '../../../../indexer/sources/sourceErrors.js';
import { ndjsonStream, ndjsonText, ppaRecord } from '../../../support/ppaRecords.js';
import { rejectionOf } from '../../../support/rejection.js';

async function slugs(source: FileSource): Promise<string[]> {
  const read: string[] = [];
  for await (const item of source.items({}) as AsyncIterable<SourceItem & { value: { slug: string } }>)
    read.push(item.value.slug);
  return read;
}

describe('indexer/sources/fileSource', () => {
  let dir: string;
  const tmpdirBefore = process.env.TMPDIR;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'indexer-file-source-'));
    process.env.TMPDIR = join(dir); // where a stream's spool goes
  });
  afterEach(async () => {
    if (tmpdirBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdirBefore;
    await rm(dir, { recursive: true, force: true });
  });

  it('tells NDJSON from a JSON array by the first character, after a BOM and blank space', async () => {
    const records = [ppaRecord('a'), ppaRecord('b')];
    const cases: [string, string, string][] = [
      ['plain.ndjson', ndjsonText(records), 'ndjson'],
      ['array.json', `\uFEFF \n\t${JSON.stringify(records)}`, 'json-array'],
      ['empty.ndjson', '', 'ndjson'],
    ];
    for (const [name, text, format] of cases) {
      const path = join(dir, name);
      await writeFile(path, text);
      const source = await FileSource.open(path);
      expect(source.format, name).to.equal(format);
      expect(source.total, name).to.equal(Buffer.byteLength(text));
      expect(await slugs(source), name).to.deep.equal(text ? ['a', 'b'] : []);
      await source.close();
    }
  });

  it('reads a stream twice from its spool, removes the spool on close, and keeps a named file', async () => {
    const source = await FileSource.open(ndjsonStream([ppaRecord('a'), ppaRecord('b')]));
    expect(await slugs(source)).to.deep.equal(['a', 'b']);
    expect(await slugs(source)).to.deep.equal(['a', 'b']);
    expect((await readdir(dir)).filter((name) => name.startsWith('ppa-indexer-'))).to.have.length(1);
    await source.close();
    expect(await readdir(dir)).to.deep.equal([]);

    const path = join(dir, 'kept.ndjson');
    await writeFile(path, ndjsonText([ppaRecord('a')]));
    await (await FileSource.open(path)).close();
    expect((await stat(path)).isFile()).to.equal(true);
  });

  it('refuses a missing file and a directory with their path, as usage errors', async () => {
    const missing = await rejectionOf(FileSource.open(join(dir, 'nope.ndjson')));
    expect(missing).to.be.instanceOf(SourceError);
    expect(String(missing)).to.include(`the source "${join(dir, 'nope.ndjson')}" does not exist`);
    const directory = await rejectionOf(FileSource.open(dir));
    expect(directory).to.be.instanceOf(SourceError);
    expect(String(directory)).to.include(`"${dir}"`);
  });

  it('finds a file replaced between passes, even one of the same size', async () => {
    const path = join(dir, 'records.ndjson');
    const text = ndjsonText([ppaRecord('a')]);
    await writeFile(path, text);
    const source = await FileSource.open(path);
    await source.assertUnchanged();
    // Same bytes, same size: a new file put in its place (another inode) is still another file.
    await writeFile(join(dir, 'new.ndjson'), text);
    await rename(join(dir, 'new.ndjson'), path);
    expect(await rejectionOf(source.assertUnchanged())).to.be.instanceOf(SourceChangedError);
    expect(source.meta()).to.deep.equal({});
  });
});
