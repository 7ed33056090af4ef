// The indexer's fake Elasticsearch (test/support/fakeElasticsearch.ts) answers as Elasticsearch does where the
// indexer's tests rely on it: through the real client, 404s and 409s are the client's ResponseErrors, an index's
// existence is a boolean, get is realtime while searches wait for a refresh, versions guard writes, a bulk item is
// refused alone, and searches sort, page and aggregate in the byte order of a keyword.
import { errors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(errors.ResponseError);
    return (error as errors.ResponseError).meta.statusCode;
  }
  throw new Error('expected a ResponseError');
}

describe('test/support/fakeElasticsearch', () => {
  it('creates, finds, aliases and deletes indices as the client expects', async () => {
    const { client, indices } = fakeElasticsearch();
    expect(await client.indices.exists({ index: 'ppas-a' })).to.equal(false);
    await client.indices.create({ index: 'ppas-a', settings: { index: { refresh_interval: '-1' } } });
    expect(await client.indices.exists({ index: 'ppas-a' })).to.equal(true);
    expect(indices.get('ppas-a')?.settings).to.deep.equal({ refresh_interval: '-1' });
    expect(await statusOf(client.indices.create({ index: 'ppas-a' }))).to.equal(400);
    expect(await statusOf(client.indices.getAlias({ name: 'ppas' }))).to.equal(404);
    await client.indices.updateAliases({ actions: [{ add: { index: 'ppas-a', alias: 'ppas' } }] });
    expect(Object.keys(await client.indices.getAlias({ name: 'ppas' }))).to.deep.equal(['ppas-a']);
    // A remove that must exist and does not fails the whole call: the add beside it is not applied.
    const moved = client.indices.updateAliases({
      actions: [
        { remove: { index: 'ppas-a', alias: 'other', must_exist: true } },
        { add: { index: 'ppas-a', alias: 'x' } },
      ],
    });
    expect(await statusOf(moved)).to.equal(404);
    expect([...indices.get('ppas-a')!.aliases]).to.deep.equal(['ppas']);
    await client.indices.delete({ index: ['ppas-a'] });
    expect(indices.size).to.equal(0);
    expect(await statusOf(client.indices.delete({ index: 'ppas-a' }))).to.equal(404);
  });

  it('reads documents realtime, but searches and counts only what a refresh made searchable', async () => {
    const es = fakeElasticsearch();
    es.addIndex('idx', { documents: [{ slug: 'a' }] });
    await es.client.index({ index: 'idx', id: 'b', document: { slug: 'b' } });
    expect((await es.client.get({ index: 'idx', id: 'b' }))._source).to.deep.equal({ slug: 'b' });
    expect((await es.client.count({ index: 'idx' })).count).to.equal(1);
    await es.client.indices.refresh({ index: 'idx' });
    expect((await es.client.count({ index: 'idx' })).count).to.equal(2);
    await es.client.index({ index: 'idx', id: 'c', document: { slug: 'c' }, refresh: true });
    expect((await es.client.count({ index: 'idx' })).count).to.equal(3);
  });

  it('refuses a create of an existing document and a write to a version that is not the current one', async () => {
    const { client } = fakeElasticsearch();
    await client.indices.create({ index: 'locks' });
    const first = await client.index({ index: 'locks', id: 'x', op_type: 'create', document: { n: 1 } });
    expect(
      await statusOf(client.index({ index: 'locks', id: 'x', op_type: 'create', document: { n: 2 } })),
    ).to.equal(409);
    const version = { if_seq_no: first._seq_no!, if_primary_term: first._primary_term! };
    const second = await client.index({ index: 'locks', id: 'x', document: { n: 3 }, ...version });
    expect(
      await statusOf(client.index({ index: 'locks', id: 'x', document: { n: 4 }, ...version })),
    ).to.equal(409);
    expect(await statusOf(client.delete({ index: 'locks', id: 'x', ...version }))).to.equal(409);
    await client.delete({ index: 'locks', id: 'x', if_seq_no: second._seq_no!, if_primary_term: 1 });
    expect(await statusOf(client.get({ index: 'locks', id: 'x' }))).to.equal(404);
  });

  it('applies each bulk item alone: a refused one, a create of an existing id and a delete of a missing one', async () => {
    const es = fakeElasticsearch();
    es.addIndex('idx', { documents: [{ slug: 'old' }] });
    es.refuseItems((_index, id) =>
      id === 'bad' ? { status: 400, type: 'mapper_parsing_exception' } : undefined,
    );
    const response = await es.client.bulk({
      operations: [
        { index: { _index: 'idx', _id: 'new' } },
        { slug: 'new' },
        { index: { _index: 'idx', _id: 'bad' } },
        { slug: 'bad' },
        { create: { _index: 'idx', _id: 'old' } },
        { slug: 'old' },
        { delete: { _index: 'idx', _id: 'gone' } },
      ],
    });
    expect(response.errors).to.equal(true);
    expect(response.items.map((item) => Object.values(item)[0]!.status)).to.deep.equal([201, 400, 409, 404]);
    expect([...es.sources('idx').keys()].sort()).to.deep.equal(['new', 'old']);
  });

  it('sorts by a keyword in byte order, pages with search_after, and picks _source fields', async () => {
    const es = fakeElasticsearch();
    es.addIndex('idx', {
      documents: ['b', 'a-1', 'a', 'c'].map((slug, n) => ({ slug, change: { seq: n, at: 'x' }, other: 1 })),
    });
    const page = (after?: (string | number)[]) =>
      es.client.search<{ slug: string }>({
        index: 'idx',
        size: 2,
        sort: [{ slug: { order: 'asc' } }],
        _source: ['slug', 'change.seq'],
        ...(after ? { search_after: after } : {}),
      });
    const first = await page();
    expect(first.hits.hits.map((hit) => hit._id)).to.deep.equal(['a', 'a-1']);
    expect(first.hits.hits[0]!._source).to.deep.equal({ slug: 'a', change: { seq: 2 } });
    const second = await page(first.hits.hits.at(-1)!.sort as string[]);
    expect(second.hits.hits.map((hit) => hit._id)).to.deep.equal(['b', 'c']);
    const newest = await es.client.search({ index: 'idx', size: 1, sort: [{ 'change.seq': 'desc' }] });
    expect(newest.hits.hits[0]!._id).to.equal('c');
  });

  it('gives composite buckets in key order, a page after the last key, missing values first', async () => {
    const es = fakeElasticsearch();
    es.addIndex('idx', {
      documents: [{ slug: 'b', content_hash: 'h2' }, { slug: 'a' }, { slug: 'c', content_hash: 'h3' }],
    });
    const walk = (after?: Record<string, unknown>) =>
      es.client.search({
        index: 'idx',
        size: 0,
        query: { range: { slug: { gte: 'a', lt: 'c' } } },
        aggs: {
          served: {
            composite: {
              size: 1,
              sources: [
                { slug: { terms: { field: 'slug' } } },
                { hash: { terms: { field: 'content_hash', missing_bucket: true } } },
              ],
              ...(after ? { after } : {}),
            },
          },
        },
      });
    const keys: unknown[] = [];
    let after: Record<string, unknown> | undefined;
    for (let page = 0; page < 3; page++) {
      const served = (await walk(after)).aggregations!.served as {
        buckets: { key: object }[];
        after_key?: Record<string, unknown>;
      };
      keys.push(...served.buckets.map((bucket) => bucket.key));
      after = served.after_key;
    }
    expect(keys).to.deep.equal([
      { slug: 'a', hash: null },
      { slug: 'b', hash: 'h2' },
    ]);
  });

  it('fails a request it cannot answer with 501, so a test never passes on a silent default', async () => {
    const { client } = fakeElasticsearch();
    expect(await statusOf(client.ingest.getPipeline())).to.equal(501);
  });
});
