// elasticsearch/servedEntries: a generation read as (slug, content hash) in byte order of the slug, a range at a
// time. Checked over the fake Elasticsearch: stored hashes read from a composite walk when the _meta names the
// current hash version (a document without one gets the hash derived from its _source), every hash derived from
// _source for an older release's generation, slugs only when asked, every page and range visited once and in
// order, and sync's list of every slug of an index.
import { expect } from 'chai';
import { CONTENT_HASH_VERSION } from '../../../../indexContract/contentHash.js';
import type { IndexDocument } from '../../../../indexContract/document.js';
import {
  servedEntries,
  indexedSlugs,
  type ServedEntry,
} from '../../../../indexer/elasticsearch/servedEntries.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { compareBytes } from '../../../../indexer/slugOrder.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, documentsOf } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';

const SLUGS = ['b-1', 'a', 'z', 'a-2', 'm', 'b', '0-x', 'q'];

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

const entriesOf = (documents: readonly IndexDocument[]): ServedEntry[] =>
  documents
    .map((document) => ({ slug: document.slug, hash: document.content_hash }))
    .sort((a, b) => compareBytes(a.slug, b.slug));

const searches = (es: ReturnType<typeof fakeElasticsearch>) =>
  es.calls
    .filter((call) => call.path.endsWith('/_search'))
    .map((call) => call.body as Record<string, unknown>);

describe('indexer/elasticsearch/servedEntries', () => {
  it('walks stored hashes in byte order, page by page and range by range, each document once', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, 'ppas-1', SLUGS);
    const entries = await all(servedEntries(es.client, 'ppas-1', { bounds: ['b', 'n'], pageSize: 2 }));
    expect(entries).to.deep.equal(entriesOf(documentsOf(SLUGS)));
    const bodies = searches(es);
    // Hits are never fetched: the composite aggregation reads the two keywords.
    expect(bodies.every((body) => body.size === 0)).to.equal(true);
    expect(
      bodies.map((body) => JSON.stringify((body.query as { range?: unknown } | undefined)?.range ?? null)),
    ).to.include(JSON.stringify({ slug: { gte: 'b', lt: 'n' } }));
  });

  it('derives the hash from _source for a document stored without one', async () => {
    const es = fakeElasticsearch();
    const [kept, bare] = documentsOf(['a', 'b']) as [IndexDocument, IndexDocument];
    const { content_hash: _dropped, ...unhashed } = bare;
    es.addIndex('ppas-1', {
      documents: [kept, unhashed],
      meta: { content_hash_version: CONTENT_HASH_VERSION },
    });
    expect(await all(servedEntries(es.client, 'ppas-1'))).to.deep.equal(entriesOf([kept, bare]));
  });

  it('derives every hash from the served fields of a generation an older release built', async () => {
    const es = fakeElasticsearch();
    // An older release's documents: a stored hash of another definition, and no version in _meta.
    const documents = documentsOf(['c', 'a', 'b']).map((document) => ({
      ...document,
      content_hash: 'old-definition',
    }));
    es.addIndex('ppas-old', { documents, meta: { records: 3 } });
    const entries = await all(servedEntries(es.client, 'ppas-old', { pageSize: 2 }));
    expect(entries).to.deep.equal(entriesOf(documentsOf(['a', 'b', 'c'])));
    expect(searches(es).every((body) => body.aggs === undefined)).to.equal(true);
  });

  it('counts a changed served field as a different hash, whichever walk reads it', async () => {
    const es = fakeElasticsearch();
    const changed = buildDocument(ppaRecord('a', { capacity_mw: 61 }));
    es.addIndex('ppas-old', { documents: [{ ...changed, content_hash: 'x' }] });
    const [entry] = await all(servedEntries(es.client, 'ppas-old'));
    expect(entry!.hash).to.equal(changed.content_hash);
    expect(entry!.hash).to.not.equal(documentsOf(['a'])[0]!.content_hash);
  });

  it('gives slugs only, hash null, when asked for no hashes', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, 'ppas-1', ['b', 'a']);
    expect(await all(servedEntries(es.client, 'ppas-1', { hashes: false }))).to.deep.equal([
      { slug: 'a', hash: null },
      { slug: 'b', hash: null },
    ]);
  });

  it('gives a document with two slugs once under each, each in its own range', async () => {
    const es = fakeElasticsearch();
    const [a] = documentsOf(['a']) as [IndexDocument];
    es.addIndex('ppas-1', {
      documents: [['a', { ...a, slug: ['a', 'p'] }]],
      meta: { content_hash_version: CONTENT_HASH_VERSION },
    });
    const entries = await all(servedEntries(es.client, 'ppas-1', { bounds: ['m'] }));
    expect(entries.map((entry) => entry.slug)).to.deep.equal(['a', 'p']);
  });

  it('lists every slug of an index in byte order, in ranges found from counts', async () => {
    const es = fakeElasticsearch();
    const slugs = Array.from({ length: 30 }, (_, n) => `s${n}-${String.fromCharCode(97 + (n % 26))}`);
    addGeneration(es, 'ppas-1', slugs);
    expect(await all(indexedSlugs(es.client, 'ppas-1', 4))).to.deep.equal([...slugs].sort(compareBytes));
    // Cut into ranges: some walk asked for a range, not the whole index at once.
    expect(searches(es).some((body) => body.aggs !== undefined && body.query !== undefined)).to.equal(true);
  });
});
