import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSlugList, writeSlugList } from '../../../../indexer/sources/slugList.js';

async function* from(values: string[]): AsyncGenerator<string> {
  yield* values;
}

describe('indexer: slug list file', () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'slug-list-'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  it('reads back every slug in order, one line each, whatever characters an invalid row holds', async () => {
    const slugs = ['', 'a', 'a b', 'line\nbreak', 'tab\tand "quote"', 'é', '😀', 'z'];
    const path = join(directory, 'slugs');
    await writeSlugList(path, from(slugs));
    expect((await readFile(path, 'utf8')).split('\n')).to.have.length(slugs.length + 1);
    const read: string[] = [];
    for await (const slug of readSlugList(path)) read.push(slug);
    expect(read).to.deep.equal(slugs);
  });

  it('an empty list is an empty file', async () => {
    const path = join(directory, 'empty');
    await writeSlugList(path, from([]));
    const read: string[] = [];
    for await (const slug of readSlugList(path)) read.push(slug);
    expect(read).to.deep.equal([]);
  });
});
