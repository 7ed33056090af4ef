// elasticsearch/aliases: where the alias points, the generations `<alias>-<timestamp>` behind it (newest first,
// nothing else listed), the swap in one call that fails when the alias moved meanwhile, retention (the live index,
// then the one the alias left, then the newest) and the generation a rollback returns to. Over the fake
// Elasticsearch (test/support/fakeElasticsearch.ts).
import { expect } from 'chai';
import {
  aliasTarget,
  applyRetention,
  dataIndices,
  previousIndex,
  swapAlias,
} from '../../../../indexer/elasticsearch/aliases.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { generationName } from '../../../support/generations.js';

const [t1, t2, t3, t4] = [1, 2, 3, 4].map((minute) => generationName('ppas', minute)) as [
  string,
  string,
  string,
  string,
];

describe('indexer/elasticsearch/aliases', () => {
  it('finds the index the alias points at, null when there is no alias, and refuses an alias on two', async () => {
    const es = fakeElasticsearch();
    expect(await aliasTarget(es.client, 'ppas')).to.equal(null);
    es.addIndex(t1, { aliases: ['ppas'] });
    expect(await aliasTarget(es.client, 'ppas')).to.equal(t1);
    es.addIndex(t2, { aliases: ['ppas'] });
    let error: unknown;
    await aliasTarget(es.client, 'ppas').catch((caught: unknown) => (error = caught));
    expect(String(error)).to.include(`alias "ppas" points at 2 indices: ${t1}, ${t2}`);
  });

  it('lists only the alias’s own generations, newest first, with their searchable documents', async () => {
    const es = fakeElasticsearch();
    es.addIndex(t1, { documents: [{ slug: 'a' }] });
    es.addIndex(t3, { documents: [{ slug: 'a' }, { slug: 'b' }] });
    es.addIndex(t2);
    for (const other of ['ppas-changes', 'ppas-other', generationName('ppas-eu', 5), 'ppa-indexer-locks'])
      es.addIndex(other);
    const listed = await dataIndices(es.client, 'ppas');
    expect(listed.map(({ index, docs }) => [index, docs])).to.deep.equal([
      [t3, 2],
      [t2, 0],
      [t1, 1],
    ]);
    expect(listed[0]!.builtAt.toISOString()).to.equal('2026-01-01T00:03:00.000Z');
  });

  it('moves the alias in one call, and fails without moving it when the alias left `from` meanwhile', async () => {
    const es = fakeElasticsearch();
    es.addIndex(t1);
    es.addIndex(t2);
    es.addIndex(t3);
    await swapAlias(es.client, 'ppas', null, t1);
    expect(es.aliasTarget('ppas')).to.equal(t1);
    await swapAlias(es.client, 'ppas', t1, t2);
    expect(es.aliasTarget('ppas')).to.equal(t2);
    expect(es.calls.filter((call) => call.path === '/_aliases')).to.have.length(2);
    // Another run moved it to t2 already: a swap from t1 is refused rather than leaving two indices on the alias.
    let error: unknown;
    await swapAlias(es.client, 'ppas', t1, t3).catch((caught: unknown) => (error = caught));
    expect((error as { meta?: { statusCode?: number } }).meta?.statusCode).to.equal(404);
    expect(es.aliasTarget('ppas')).to.equal(t2);
  });

  it('keeps the live index, then the one the alias left, then the newest, and deletes the rest', async () => {
    const es = fakeElasticsearch();
    for (const index of [t1, t2, t3, t4]) es.addIndex(index);
    es.addIndex('ppas-changes');
    // After a rollback to t2 from t4, then a reindex to t3 that left t2: t3 and t2 are kept, though t4 is newer.
    expect((await applyRetention(es.client, 'ppas', 2, t3, t2)).sort()).to.deep.equal([t1, t4]);
    expect([...es.indices.keys()].sort()).to.deep.equal(['ppas-changes', t2, t3].sort());
  });

  it('keeps the newest others after the live one, at least the live one, and deletes nothing when all fit', async () => {
    const es = fakeElasticsearch();
    for (const index of [t1, t2, t3, t4]) es.addIndex(index);
    expect(await applyRetention(es.client, 'ppas', 5, t4, t3)).to.deep.equal([]);
    expect((await applyRetention(es.client, 'ppas', 3, t4, null)).sort()).to.deep.equal([t1]);
    expect((await applyRetention(es.client, 'ppas', 0, t4, null)).sort()).to.deep.equal([t2, t3]);
    expect([...es.indices.keys()]).to.deep.equal([t4]);
  });

  it('names the kept generation built just before the live one as the rollback target', async () => {
    const es = fakeElasticsearch();
    es.addIndex(t1);
    es.addIndex(t3);
    es.addIndex(t4);
    expect((await previousIndex(es.client, 'ppas', t4))?.index).to.equal(t3);
    // Live on an older one (after a rollback): the one before it, not a newer one.
    expect((await previousIndex(es.client, 'ppas', t3))?.index).to.equal(t1);
    expect(await previousIndex(es.client, 'ppas', t1)).to.equal(null);
  });
});
