// elasticsearch/derivedHashes: content hashes derived from the served fields of _source, for documents whose stored
// hash cannot be compared. Checked over the fake Elasticsearch: the _source walk in byte order across pages
// (search_after) and ranges, asking only for the served fields; a document without a slug left out, one with several
// given once under its lowest; the lookup of given slugs a bounded batch at a time, a slug found nowhere left out.
import { expect } from 'chai';
import { DETAIL_SOURCE_FIELDS } from '../../../../indexContract/sourceFields.js';
import { derivedHashesOf, sourceHashedEntries } from '../../../../indexer/elasticsearch/derivedHashes.js';
import { compareBytes } from '../../../../indexer/slugOrder.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { documentsOf } from '../../../support/generations.js';

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

/** An older release's documents: a hash of another definition stored, which is never read. */
const older = (slugs: readonly string[]) =>
  documentsOf(slugs).map((document) => ({ ...document, content_hash: 'stale' }));

const expectedHash = (slug: string) => documentsOf([slug])[0]!.content_hash;

describe('indexer/elasticsearch/derivedHashes', () => {
  it('walks _source in byte order of the slug across pages and ranges, hashing the served fields', async () => {
    const es = fakeElasticsearch();
    const slugs = ['k', 'a-1', 'b', 'a', 'zz', 'c-3', 'y'];
    es.addIndex('ppas-old', { documents: older(slugs) });
    const entries = await all(sourceHashedEntries(es.client, 'ppas-old', { bounds: ['c'], pageSize: 2 }));
    const sorted = [...slugs].sort(compareBytes);
    expect(entries).to.deep.equal(sorted.map((slug) => ({ slug, hash: expectedHash(slug) })));
    const asked = es.calls
      .filter((call) => call.path.endsWith('/_search'))
      .map((call) => call.body as { _source: string[] });
    expect(asked.length).to.be.greaterThan(2);
    expect(asked[0]!._source).to.deep.equal([...DETAIL_SOURCE_FIELDS]);
  });

  it('leaves out a document without a slug and gives one with several slugs once, under its lowest', async () => {
    const es = fakeElasticsearch();
    const [a, b] = older(['a', 'b']);
    es.addIndex('ppas-old', {
      documents: [
        ['a', a!],
        ['b', { ...b!, slug: ['n', 'b'] }],
        ['none', { project_name: 'no slug' }],
      ],
    });
    const entries = await all(sourceHashedEntries(es.client, 'ppas-old', { bounds: ['m'] }));
    expect(entries.map((entry) => entry.slug)).to.deep.equal(['a', 'b']);
  });

  it('looks up the hashes of given slugs, 500 a request, leaving out those found nowhere', async () => {
    const es = fakeElasticsearch();
    const slugs = Array.from({ length: 501 }, (_, n) => `ppa-${n}`);
    es.addIndex('ppas-old', { documents: older(slugs.slice(0, 3)) });
    const hashes = await derivedHashesOf(es.client, 'ppas-old', slugs);
    expect([...hashes.keys()].sort()).to.deep.equal(['ppa-0', 'ppa-1', 'ppa-2']);
    expect(hashes.get('ppa-1')).to.equal(expectedHash('ppa-1'));
    const sizes = es.calls.map(
      (call) => (call.body as { query: { terms: { slug: string[] } } }).query.terms.slug.length,
    );
    expect(sizes).to.deep.equal([500, 1]);
  });
});
