// sync/catchUp: a reindex's catch-up before its swap, over the fake Elasticsearch and a relation in memory (every
// PostgresChangeReader reads it while a test runs). Checked: what changed since the snapshot applied to the new
// index, the documents of rows deleted since (the snapshot's slugs no longer rows) deleted, the new index's mark
// moved and its documents made searchable before it goes live; nothing guarded or written to the change log; the
// reader closed, even when the catch-up fails.
import { expect } from 'chai';
import type { IndexerLogger } from '../../../../indexer/indexerLog.js';
import type { CatchUpSource } from '../../../../indexer/sources/recordSource.js';
import { catchUp } from '../../../../indexer/sync/catchUp.js';
import { FakeRelation, serveChangesFrom } from '../../../support/fakeChangeSource.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';

const NEW = generationName('ppas', 2);
const silent = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as IndexerLogger;

describe('indexer/sync/catchUp', () => {
  let relation: FakeRelation;
  let served: ReturnType<typeof serveChangesFrom>;
  beforeEach(() => {
    relation = new FakeRelation();
    served = serveChangesFrom(relation);
  });
  afterEach(() => served.restore());

  /** The new index as a reindex built it from the relation's snapshot, and where to catch up from. */
  function built(slugs: string[]): { from: CatchUpSource; es: ReturnType<typeof fakeElasticsearch> } {
    const es = fakeElasticsearch();
    const records = slugs.map((slug) => ppaRecord(slug));
    relation.put(...records);
    relation.now += 600_000;
    addGeneration(es, NEW, records, { meta: { high_water_mark: relation.mark } });
    const from: CatchUpSource = {
      url: 'postgres://fake-host/ppas',
      relation: 'ppa_index_records',
      snapshotSlugs: async function* () {
        yield* [...slugs].sort();
      },
    };
    return { from, es };
  }

  it('applies what changed during the build, deletes what was deleted since, and moves the mark', async () => {
    const { from, es } = built(['a', 'b', 'c', 'd']);
    relation.put(ppaRecord('a', { capacity_mw: 9 }), ppaRecord('b', { published: false }), ppaRecord('new'));
    relation.remove('c');
    const refreshesBefore = es.indices.get(NEW)!.refreshes;
    await catchUp(es.client, NEW, from, silent);
    expect([...es.sources(NEW).keys()].sort()).to.deep.equal(['a', 'd', 'new']);
    expect((es.sources(NEW).get('a') as { capacity_mw: number }).capacity_mw).to.equal(9);
    const index = es.indices.get(NEW)!;
    expect(index.mappings._meta).to.include({ high_water_mark: relation.mark, sync_runs: 1 });
    expect(index.searchable.has('new'), 'searchable before the swap').to.equal(true);
    expect(index.searchable.has('c')).to.equal(false);
    expect(index.refreshes).to.be.greaterThan(refreshesBefore);
    // Not the live index: nothing guarded, nothing logged.
    expect(es.indices.has('ppas-changes')).to.equal(false);
    expect(es.calls.some((call) => call.path.endsWith('/_mget'))).to.equal(false);
    expect(served.closed()).to.equal(1);
  });

  it('closes its reader when it fails, and the mark stays', async () => {
    const { from, es } = built(['a']);
    const mark = relation.mark;
    relation.put(ppaRecord('b'));
    relation.failAfterBatches = { batches: 0, error: new Error('connection lost') };
    let error: unknown;
    await catchUp(es.client, NEW, from, silent).catch((caught: unknown) => (error = caught));
    expect(String(error)).to.include('connection lost');
    expect(es.indices.get(NEW)!.mappings._meta).to.include({ high_water_mark: mark });
    expect(served.closed()).to.equal(1);
  });
});
