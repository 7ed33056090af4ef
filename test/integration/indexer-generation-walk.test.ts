// How a reindex reads a generation to compare it with the next (indexer/elasticsearch/servedEntries.ts, slugRanges.ts), against a
// real Elasticsearch: walked in ranges of slugs, the index gives back exactly what one unbounded walk gives, in byte
// order, whatever the bounds, by its stored hashes or (an older release's generation) by hashes derived from
// _source; and the comparison from what a reindex noted equals the one that reads both indices.
import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { BuiltEntries } from '../../indexer/changes/builtEntries.js';
import { compareGenerations, compareWithBuilt } from '../../indexer/changes/compareGenerations.js';
import { servedEntries, type ServedEntry } from '../../indexer/elasticsearch/servedEntries.js';
import { servedContentHash } from '../../indexContract/contentHash.js';
import { slugBounds } from '../../indexer/elasticsearch/slugRanges.js';
import { indexDefinition } from '../../indexer/elasticsearch/indexMapping.js';
import { compareBytes } from '../../indexer/slugOrder.js';
import { makeOlder } from '../support/olderGeneration.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

/** Slugs the record schema allows, some of which start others ("a-1" and "a-1-b"). */
const slugOf = (i: number): string =>
  `${['hydro', 'solar', 'wind', 'a', 'a-1', 'z9'][i % 6]}-${(i * 7919).toString(36)}${i % 5 === 0 ? '-b' : ''}`;

async function createGeneration(client: Client, index: string, entries: ServedEntry[]): Promise<void> {
  const definition = indexDefinition({ built_at: new Date().toISOString(), records: entries.length });
  await client.indices.create({ index, ...definition });
  // Only the fields the walk reads: the mapping's other fields are optional to Elasticsearch.
  const operations = entries.flatMap(({ slug, hash }) => [
    { create: { _index: index, _id: slug } },
    { slug, ...(hash === null ? {} : { content_hash: hash }) },
  ]);
  const response = await client.bulk({ operations, refresh: true });
  expect(response.errors, 'bulk errors').to.equal(false);
}

/** What a walk gives for an entry: a document without a stored hash has the one derived from its _source. */
const walked = ({ slug, hash }: ServedEntry): ServedEntry => ({
  slug,
  hash: hash ?? servedContentHash({ slug }),
});
/** What a walk of an older release's generation gives: every hash derived (these documents hold only a slug). */
const derived = ({ slug }: ServedEntry): ServedEntry => ({ slug, hash: servedContentHash({ slug }) });

async function all(entries: AsyncIterable<ServedEntry>): Promise<ServedEntry[]> {
  const collected: ServedEntry[] = [];
  for await (const entry of entries) collected.push(entry);
  return collected;
}

describe('indexer: walking a generation in ranges of slugs', function () {
  this.timeout(60_000);
  const client = testEsClient();
  const prefix = uniqueName('walk');
  const outgoing = `${prefix}-outgoing`;
  const incoming = `${prefix}-incoming`;
  const outgoingEntries: ServedEntry[] = [];
  const incomingEntries: ServedEntry[] = [];

  before(async () => {
    for (let i = 0; i < 240; i++) {
      const slug = slugOf(i);
      // A few without a hash (an older release's documents), some changed, some only on one side.
      if (i % 11 !== 0) outgoingEntries.push({ slug, hash: i % 13 === 0 ? null : `h${i}` });
      if (i % 17 !== 0) incomingEntries.push({ slug, hash: i % 7 === 0 ? `h${i}x` : `h${i}` });
    }
    await createGeneration(client, outgoing, outgoingEntries);
    await createGeneration(client, incoming, incomingEntries);
  });
  after(async () => {
    await deleteIndices(client, prefix);
    await client.close();
  });

  it('gives back every document once, in byte order, with or without bounds and pages', async () => {
    const expected = [...outgoingEntries].sort((a, b) => compareBytes(a.slug, b.slug)).map(walked);
    expect(
      expected.filter(({ slug }) => outgoingEntries.some((e) => e.slug === slug && e.hash === null)),
    ).to.have.length.greaterThan(5);
    expect(await all(servedEntries(client, outgoing))).to.deep.equal(expected);
    const slugs = expected.map(({ slug }) => slug);
    const cuts: Record<string, string[]> = {
      'every 7th slug': slugs.filter((_, i) => i > 0 && i % 7 === 0),
      'slugs not in the index, below, between and above all': ['0', 'a-1-', 'solar-', 'zz'],
      'repeated and out of order': [slugs[50]!, slugs[50]!, slugs[20]!, slugs[120]!],
      'one bound': [slugs[100]!],
    };
    for (const [what, bounds] of Object.entries(cuts)) {
      for (const pageSize of [4, 1000]) {
        const walked = await all(servedEntries(client, outgoing, { bounds, pageSize }));
        expect(walked, `${what}, pages of ${pageSize}`).to.deep.equal(expected);
      }
    }
  });

  it('finds bounds from counts that cut a generation into ranges of at most the size asked', async () => {
    const expected = [...outgoingEntries].sort((a, b) => compareBytes(a.slug, b.slug)).map(walked);
    for (const per of [20, 75]) {
      const bounds = await slugBounds(client, outgoing, per);
      expect(bounds.length, `bounds for ${per}`).to.be.within(
        Math.ceil(expected.length / per) - 1,
        Math.ceil((2 * expected.length) / per),
      );
      expect(await all(servedEntries(client, outgoing, { bounds, pageSize: 7 }))).to.deep.equal(expected);
      // Each range, counted from the walk: none larger than asked.
      const sizes = bounds.map(() => 0).concat(0);
      for (const { slug } of expected)
        sizes[bounds.filter((bound) => compareBytes(slug, bound) >= 0).length]! += 1;
      expect(Math.max(...sizes), `largest range for ${per}`).to.be.at.most(per);
    }
    expect(await slugBounds(client, outgoing, 10_000)).to.deep.equal([]);
  });

  it("walks an older release's generation (no hash version) by hashes derived from _source, in the same order", async () => {
    const older = `${prefix}-older`;
    await createGeneration(client, older, outgoingEntries);
    await makeOlder(client, older, { hashes: 'kept' });
    const expected = [...outgoingEntries].sort((a, b) => compareBytes(a.slug, b.slug)).map(derived);
    expect(await all(servedEntries(client, older))).to.deep.equal(expected);
    const slugs = expected.map(({ slug }) => slug);
    for (const bounds of [[], slugs.filter((_, i) => i > 0 && i % 7 === 0), ['0', 'a-1-', 'solar-', 'zz']]) {
      for (const pageSize of [4, 1000]) {
        const walked = await all(servedEntries(client, older, { bounds, pageSize }));
        expect(walked, `${bounds.length} bounds, pages of ${pageSize}`).to.deep.equal(expected);
      }
    }
    // Compared with a current generation of the same documents: every stored hash differs from the derived one.
    const diff = await compareGenerations(client, older, outgoing);
    expect(diff).to.include({ added: 0, removed: 0 });
    expect(diff.updated + diff.unchanged).to.equal(outgoingEntries.length);
    expect(diff.unchanged).to.equal(outgoingEntries.filter(({ hash }) => hash === null).length);
  });

  it("walks slugs outside the schema's alphabet whole, in byte order", async () => {
    const odd = `${prefix}-odd`;
    const slugs = [
      'É-x',
      'a',
      'a-',
      'a-a',
      'zzz~',
      'Z',
      '0',
      'a\u00e9',
      'ﬁ',
      'a-b-c',
      '😀',
      'a~',
      'b',
      'a-0',
    ];
    const entries = [...slugs, ...slugs.map((slug) => `${slug}-2`), ...slugs.map((slug) => `${slug}z`)].map(
      (slug, i) => ({ slug, hash: `h${i}` }),
    );
    await createGeneration(client, odd, entries);
    const expected = [...entries].sort((a, b) => compareBytes(a.slug, b.slug));
    const bounds = await slugBounds(client, odd, 3);
    expect(bounds.length).to.be.greaterThan(3);
    expect(await all(servedEntries(client, odd, { bounds, pageSize: 2 }))).to.deep.equal(expected);
    // The same slugs in an older release's generation: walked from _source in the same byte order.
    const oddOlder = `${prefix}-odd-older`;
    await createGeneration(client, oddOlder, entries);
    await makeOlder(client, oddOlder, { hashes: 'removed' });
    expect(await all(servedEntries(client, oddOlder, { bounds, pageSize: 2 }))).to.deep.equal(
      expected.map(derived),
    );
    // A document with two slugs (written by other means) comes back once per slug, in order, as unbounded.
    await client.index({
      index: odd,
      id: 'two',
      document: { slug: ['a-0', 'zzz'], content_hash: 'two' },
      refresh: true,
    });
    const unbounded = await all(servedEntries(client, odd));
    expect(unbounded).to.have.length(entries.length + 2);
    expect(await all(servedEntries(client, odd, { bounds, pageSize: 2 }))).to.deep.equal(unbounded);
  });

  it('compares with what a reindex noted as it compares two indices', async () => {
    const built = new BuiltEntries();
    for (const { slug, hash } of incomingEntries) built.add(slug, hash!);
    const bounds = new BuiltEntries();
    for (const { slug, hash } of incomingEntries) bounds.add(slug, hash!);
    const unpublished = new Set([slugOf(17), slugOf(34)]); // in the outgoing generation only;
    const fromIndices = await compareGenerations(client, outgoing, incoming, unpublished);
    const fromBuilt = await compareWithBuilt(client, outgoing, built, unpublished);
    const fromCutIndices = await compareGenerations(
      client,
      outgoing,
      incoming,
      unpublished,
      bounds.bounds(30),
    );
    expect(fromBuilt).to.deep.equal(fromIndices);
    expect(fromCutIndices).to.deep.equal(fromIndices);
    expect(fromIndices).to.include({ before: outgoingEntries.length, after: incomingEntries.length });
    expect(fromIndices.added).to.be.greaterThan(5);
    expect(fromIndices.removed).to.be.greaterThan(5);
    expect(fromIndices.updated).to.be.greaterThan(20);
    expect(fromIndices.entries.filter((e) => e.reason === 'unpublished')).to.have.length(2);
  });
});
