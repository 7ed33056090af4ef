// What a reindex wrote, noted as it writes: read back in byte order of the slug, and cut into ranges of a page.
import { expect } from 'chai';
import { BuiltEntries } from '../../../../indexer/changes/builtEntries.js';

async function all(entries: BuiltEntries) {
  const read = [];
  for await (const entry of entries.inByteOrder()) read.push(entry);
  return read;
}

describe('indexer/changes/builtEntries', () => {
  it('gives the entries back in byte order of the slug, a slug before those it starts', async () => {
    const entries = new BuiltEntries();
    for (const slug of ['b', 'a-b-c', 'a-b', 'a']) entries.add(slug, `h-${slug}`);
    expect(entries.size).to.equal(4);
    expect(await all(entries)).to.deep.equal([
      { slug: 'a', hash: 'h-a' },
      { slug: 'a-b', hash: 'h-a-b' },
      { slug: 'a-b-c', hash: 'h-a-b-c' },
      { slug: 'b', hash: 'h-b' },
    ]);
  });

  it('orders slugs beyond ASCII by their UTF-8 bytes, as Elasticsearch sorts keywords', async () => {
    const entries = new BuiltEntries();
    for (const slug of ['é', 'z', '\u{1F600}', 'ｚ']) entries.add(slug, 'h');
    // UTF-8: z (7a) < é (c3 a9) < ｚ (ef bd 9a) < 😀 (f0 9f 98 80); UTF-16 would put 😀 (d83d) before ｚ (ff5a).
    expect((await all(entries)).map((entry) => entry.slug)).to.deep.equal(['z', 'é', 'ｚ', '\u{1F600}']);
  });

  it('cuts every per-th slug in order', () => {
    const entries = new BuiltEntries();
    for (const slug of ['e', 'a', 'd', 'b', 'c', 'f', 'g']) entries.add(slug, 'h');
    expect(entries.bounds(3)).to.deep.equal(['d', 'g']);
    expect(entries.bounds(10)).to.deep.equal([]);
  });
});
