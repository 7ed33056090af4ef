// sync/syncRun: one sync run on one index, over the fake Elasticsearch and a relation in memory
// (test/support/fakeChangeSource.ts), with a target that writes plainly. Checked: rows changed since the index's
// high-water mark (less the overlap) read in batches; a published record written, an unpublished one deleted, an
// invalid one skipped and named; the mark, the run count and the data version moved in _meta only once every batch
// is in (a failed batch leaves the mark, so the next run replays it); a row re-read unchanged in the overlap not sent
// again; the reconcile deleting the documents of rows that no longer exist; an abort.
import { expect } from 'chai';
import type { PpaRecord } from '../../../../indexContract/record.js';
import { applyChanges, type Change } from '../../../../indexer/elasticsearch/changeBulk.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { InterruptedError } from '../../../../indexer/errors.js';
import type { IndexerLogger } from '../../../../indexer/indexerLog.js';
import {
  describeSkipped,
  RecentlyApplied,
  runOnIndex,
  type SyncRun,
  type SyncTarget,
} from '../../../../indexer/sync/syncRun.js';
import { FakeRelation, microseconds, readerOf } from '../../../support/fakeChangeSource.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';
import { rejectionOf } from '../../../support/rejection.js';

const LIVE = generationName('ppas', 1);

/** The index, built from the relation's rows as they are now, its mark the relation's clock. */
function indexOf(es: FakeElasticsearch, relation: FakeRelation, records: readonly PpaRecord[]) {
  relation.put(...records);
  return addGeneration(es, LIVE, records, { meta: { high_water_mark: relation.mark } });
}

/** A target that applies each batch as it comes and deletes what the relation no longer holds of `candidates`. */
function plainTarget(
  es: FakeElasticsearch,
  candidates: readonly string[] = [],
): SyncTarget & { batches: Change[][] } {
  const batches: Change[][] = [];
  return {
    batches,
    prepare: async (snapshot) =>
      snapshot.vanished(
        (async function* () {
          yield* candidates;
        })(),
      ),
    write: async (changes) => {
      batches.push(changes);
      await applyChanges(es.client, LIVE, changes);
      return changes.length;
    },
  };
}

function logged(): { logger: IndexerLogger; warnings: string[] } {
  const warnings: string[] = [];
  const ignore = () => undefined;
  return {
    warnings,
    logger: {
      info: ignore,
      error: ignore,
      warn: (_fields: unknown, message: string) => void warnings.push(message),
    } as unknown as IndexerLogger,
  };
}

function syncRun(es: FakeElasticsearch, relation: FakeRelation, changes: Partial<SyncRun> = {}): SyncRun {
  return {
    client: es.client,
    index: LIVE,
    reader: readerOf(relation),
    target: plainTarget(es),
    recent: new RecentlyApplied(),
    shouldReconcile: () => false,
    overlapSeconds: 0,
    batchSize: 2,
    logger: logged().logger,
    ...changes,
  };
}

const meta = (es: FakeElasticsearch) => es.indices.get(LIVE)!.mappings._meta!;

describe('indexer/sync/syncRun', () => {
  it('writes the published, deletes the unpublished, skips and names the invalid, then moves the mark', async () => {
    const es = fakeElasticsearch();
    const relation = new FakeRelation();
    indexOf(es, relation, [ppaRecord('kept'), ppaRecord('hidden'), ppaRecord('broken')]);
    const from = relation.mark;
    relation.put(
      ppaRecord('new'),
      ppaRecord('hidden', { published: false }),
      ppaRecord('kept', { capacity_mw: 5 }),
      ppaRecord('broken', { capacity_mw: -1 }),
      { slug: 'renamed', text: JSON.stringify(ppaRecord('other-slug')) },
    );
    const { logger, warnings } = logged();
    const summary = await runOnIndex(syncRun(es, relation, { logger }));
    expect(summary).to.include({
      written: 2,
      deleted: 1,
      skipped: 2,
      vanished: 0,
      unchanged: 0,
      reconciled: false,
    });
    expect(summary).to.include({ logged: 3, high_water_mark: relation.mark });
    expect(relation.reads).to.deep.equal([{ from, overlapSeconds: 0, batchSize: 2 }]);
    expect(Object.fromEntries(es.sources(LIVE))).to.deep.equal({
      kept: buildDocument(ppaRecord('kept', { capacity_mw: 5 })),
      broken: buildDocument(ppaRecord('broken')), // left as it was
      new: buildDocument(ppaRecord('new')),
    });
    expect(warnings).to.deep.equal([
      'skipped invalid record: slug "broken": capacity_mw must be >= 0',
      'skipped invalid record: slug "renamed": slug differs from the relation\'s slug column ("renamed")',
    ]);
    expect(meta(es)).to.include({ high_water_mark: relation.mark, sync_runs: 1, data_version: 1 });
    expect(es.indices.get(LIVE)!.searchable.has('new'), 'made searchable').to.equal(true);
  });

  it('moves the mark only after every batch is in: a failed batch is read again by the next run', async () => {
    const es = fakeElasticsearch();
    const relation = new FakeRelation();
    indexOf(es, relation, [ppaRecord('a')]);
    const from = relation.mark;
    relation.put(ppaRecord('b'), ppaRecord('c'), ppaRecord('d'), ppaRecord('e'));
    relation.failAfterBatches = { batches: 1, error: new Error('connection lost') };
    const run = syncRun(es, relation);
    expect(String(await rejectionOf(runOnIndex(run)))).to.include('connection lost');
    // The first batch is live (and searchable, with a new data version); the mark stayed.
    expect([...es.sources(LIVE).keys()].sort()).to.deep.equal(['a', 'b', 'c']);
    expect(meta(es)).to.include({ high_water_mark: from, data_version: 1 });
    expect(meta(es).sync_runs).to.equal(undefined);
    relation.failAfterBatches = null;
    const next = await runOnIndex(run);
    expect(relation.reads.map((read) => read.from)).to.deep.equal([from, from]);
    // b and c, applied by the failed run, are not sent again; d and e are.
    expect(next).to.include({ written: 2, unchanged: 2, high_water_mark: relation.mark });
    expect([...es.sources(LIVE).keys()].sort()).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
  });

  it('reads the overlap window again, sending nothing that was applied unchanged', async () => {
    const es = fakeElasticsearch();
    const relation = new FakeRelation();
    indexOf(es, relation, []);
    relation.put(ppaRecord('a'), ppaRecord('b'));
    const target = plainTarget(es);
    const run = syncRun(es, relation, { overlapSeconds: 60, target });
    await runOnIndex(run);
    relation.put(ppaRecord('b', { developer: 'Changed' }));
    const second = await runOnIndex(run);
    expect(relation.reads[1]!.from).to.equal(microseconds(relation.now - 1000));
    expect(second).to.include({ unchanged: 1, written: 1 });
    expect(target.batches.map((batch) => batch.map((change) => change.id))).to.deep.equal([
      ['a', 'b'],
      ['b'],
    ]);
    // The same run again: everything in the window is known, nothing is written, the data version stays.
    const version = meta(es).data_version;
    expect(await runOnIndex(run)).to.include({ unchanged: 2, written: 0 });
    expect(meta(es).data_version).to.equal(version);
  });

  it('deletes the documents of rows that no longer exist when it reconciles, counting the runs', async () => {
    const es = fakeElasticsearch();
    const relation = new FakeRelation();
    indexOf(
      es,
      relation,
      ['a', 'b', 'c'].map((slug) => ppaRecord(slug)),
    );
    relation.remove('b');
    const asked: number[] = [];
    const run = syncRun(es, relation, {
      target: plainTarget(es, ['a', 'b', 'c']),
      shouldReconcile: (runs) => (asked.push(runs), runs === 1),
    });
    expect(await runOnIndex(run)).to.include({ reconciled: false, vanished: 0 });
    const second = await runOnIndex(run);
    expect(asked).to.deep.equal([0, 1]);
    expect(second).to.include({ reconciled: true, vanished: 1, deleted: 1 });
    expect([...es.sources(LIVE).keys()].sort()).to.deep.equal(['a', 'c']);
    expect(meta(es)).to.include({ sync_runs: 2 });
  });

  it('stops at an abort before writing, leaving the mark', async () => {
    const es = fakeElasticsearch();
    const relation = new FakeRelation();
    indexOf(es, relation, []);
    const from = relation.mark;
    relation.put(ppaRecord('a'));
    const controller = new AbortController();
    controller.abort('SIGTERM');
    const error = await rejectionOf(runOnIndex(syncRun(es, relation, { signal: controller.signal })));
    expect(error).to.be.instanceOf(InterruptedError);
    expect(es.sources(LIVE).size).to.equal(0);
    expect(meta(es).high_water_mark).to.equal(from);
  });

  it('names a skipped record terminal-safe, and forgets what it applied before the window', () => {
    expect(describeSkipped('a\u001bb', [{ field: 'x', message: 'is bad\u0007' }])).to.equal(
      'slug "a\\u{1b}b": x is bad\\u{7}',
    );
    const recent = new RecentlyApplied();
    recent.set('old', 'd1', 1000);
    recent.set('new', 'd2', 5000);
    recent.forgetBefore(2000);
    expect([recent.has('old', 'd1'), recent.has('new', 'd2'), recent.has('new', 'other')]).to.deep.equal([
      false,
      true,
      false,
    ]);
  });
});
