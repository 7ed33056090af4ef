// sync/sync: a sync run on the alias's live index, over the fake Elasticsearch and a relation in memory (every
// PostgresChangeReader reads it while a test runs). Checked: no alias refused; the live index given the fields this
// release writes; changes applied and, with a change log, logged; the removal guard holding back a mass unpublish
// before anything is written, and letting the repaired source through; the reconcile listing the live index's slugs;
// a swap between runs replayed onto the new index from its own mark; the reader closed.
import { expect } from 'chai';
import { HEAD_ID, type ChangeLogHead } from '../../../../indexContract/changeLog.js';
import { ChangeLog } from '../../../../indexer/changes/changeLog.js';
import { MassRemovalError } from '../../../../indexer/changes/removalGuard.js';
import { IndexerError } from '../../../../indexer/errors.js';
import type { IndexerLogger } from '../../../../indexer/indexerLog.js';
import { Sync, type SyncOptions } from '../../../../indexer/sync/sync.js';
import { FakeRelation, serveChangesFrom } from '../../../support/fakeChangeSource.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';
import { rejectionOf } from '../../../support/rejection.js';

const LIVE = generationName('ppas', 1);
const NEXT = generationName('ppas', 2);
const slugs = (count: number) => Array.from({ length: count }, (_, n) => `p-${String(n).padStart(2, '0')}`);

describe('indexer/sync/sync', () => {
  let relation: FakeRelation;
  let served: ReturnType<typeof serveChangesFrom>;
  beforeEach(() => {
    relation = new FakeRelation();
    served = serveChangesFrom(relation);
  });
  afterEach(() => served.restore());

  /** An index built from `count` rows of the relation (live when it is LIVE), its mark the relation's clock. */
  function liveIndex(es: FakeElasticsearch, count: number, name = LIVE): void {
    const records = slugs(count).map((slug) => ppaRecord(slug));
    relation.put(...records);
    relation.now += 600_000; // its rows written well before its snapshot: out of the overlap window
    addGeneration(es, name, records, { live: name === LIVE, meta: { high_water_mark: relation.mark } });
  }

  const sync = (es: FakeElasticsearch, options: Partial<SyncOptions> = {}) =>
    new Sync({ client: es.client, alias: 'ppas', url: 'postgres://fake-host/ppas', ...options });

  it('refuses to run before a reindex made the alias', async () => {
    const error = await rejectionOf(sync(fakeElasticsearch()).run(() => false));
    expect(error).to.be.instanceOf(IndexerError);
    expect(String(error)).to.include('alias "ppas" does not exist: run a reindex first');
  });

  it('applies the changes to the live index and logs them, after giving it this release’s fields', async () => {
    const es = fakeElasticsearch();
    liveIndex(es, 20);
    relation.put(
      ppaRecord('new'),
      ppaRecord('p-00', { developer: 'Other' }),
      ppaRecord('p-01', { published: false }),
    );
    const summary = await sync(es, { changeLog: new ChangeLog(es.client, 'ppas') }).run(() => false);
    expect(summary).to.include({ index: LIVE, written: 2, deleted: 1, logged: 3 });
    expect(es.indices.get(LIVE)!.mappings.properties).to.have.property('content_hash');
    expect(es.sources(LIVE).has('new')).to.equal(true);
    expect(es.sources(LIVE).has('p-01')).to.equal(false);
    expect((es.sources('ppas-changes').get(HEAD_ID) as { log: ChangeLogHead }).log.seq).to.equal(3);
    // Without a change log: applied, not logged.
    relation.put(ppaRecord('newer'));
    expect(await sync(es).run(() => false)).to.include({ logged: 0 });
    expect(es.sources(LIVE).has('newer')).to.equal(true);
    expect((es.sources('ppas-changes').get(HEAD_ID) as { log: ChangeLogHead }).log.seq).to.equal(3);
  });

  it('holds back a mass unpublish before writing anything, and lets the repaired source through', async () => {
    const es = fakeElasticsearch();
    liveIndex(es, 20);
    const mark = relation.mark;
    relation.put(...slugs(5).map((slug) => ppaRecord(slug, { published: false })), ppaRecord('new'));
    const error = await rejectionOf(sync(es).run(() => false));
    expect(error).to.be.instanceOf(MassRemovalError);
    expect(es.sources(LIVE).size).to.equal(20);
    expect(es.sources(LIVE).has('new')).to.equal(false);
    const meta = es.indices.get(LIVE)!.mappings._meta!;
    expect(meta).to.include({ high_water_mark: mark });
    expect(meta.sync_guard).to.deep.include({ removals: 5, live: 20 });
    // The source repaired: four of the five published again; one removal is within 5% of 20.
    relation.put(...slugs(4).map((slug) => ppaRecord(slug)));
    expect(await sync(es).run(() => false)).to.include({ deleted: 1, written: 5 });
    expect(es.indices.get(LIVE)!.mappings._meta!.sync_guard).to.equal(undefined);
  });

  it('reconciles: the documents of rows that no longer exist are deleted', async () => {
    const es = fakeElasticsearch();
    liveIndex(es, 30);
    relation.remove('p-07');
    const summary = await sync(es).run(() => true);
    expect(summary).to.include({ reconciled: true, vanished: 1, deleted: 1 });
    expect(es.sources(LIVE).has('p-07')).to.equal(false);
    expect(es.sources(LIVE).size).to.equal(29);
  });

  it('replays onto the new index from its own mark once a reindex moved the alias', async () => {
    const es = fakeElasticsearch();
    liveIndex(es, 2);
    const infos: string[] = [];
    const logger = {
      info: (_: unknown, message: string) => infos.push(message),
      warn: () => undefined,
      error: () => undefined,
    };
    const running = sync(es, { logger: logger as unknown as IndexerLogger });
    relation.put(ppaRecord('a'));
    await running.run(() => false);
    liveIndex(es, 2, NEXT); // a reindex built NEXT, with a mark of its own
    await es.client.indices.updateAliases({
      actions: [{ remove: { index: LIVE, alias: 'ppas' } }, { add: { index: NEXT, alias: 'ppas' } }],
    });
    const nextMark = es.indices.get(NEXT)!.mappings._meta!.high_water_mark;
    relation.put(ppaRecord('b'));
    const summary = await running.run(() => false);
    expect(summary).to.include({ index: NEXT, written: 1 });
    expect(relation.reads.at(-1)!.from).to.equal(nextMark);
    expect(es.sources(NEXT).has('b')).to.equal(true);
    expect(es.sources(LIVE).has('b')).to.equal(false);
    expect(infos).to.include('the alias moved: replaying onto the new index');
    await running.close();
    expect(served.closed()).to.equal(1);
  });
});
