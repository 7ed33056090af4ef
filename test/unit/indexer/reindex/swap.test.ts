// reindex/swap: phase 5, the swap as the change log's one writer, over the fake Elasticsearch. Checked: a first
// generation starts an empty log and gets the alias; a later one is compared with the live generation (from what the
// load noted, or by reading the new index after a catch-up), its events written before the alias moves and published
// after; the removal guard, a lost lock or an abort stop it before the swap, with no event left and the alias put.
import { expect } from 'chai';
import { HEAD_ID, type ChangeLogHead } from '../../../../indexContract/changeLog.js';
import { BuiltEntries } from '../../../../indexer/changes/builtEntries.js';
import { MassRemovalError } from '../../../../indexer/changes/removalGuard.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { LOCK_INDEX, LockLostError } from '../../../../indexer/elasticsearch/lock.js';
import { InterruptedError } from '../../../../indexer/errors.js';
import { swapPhase } from '../../../../indexer/reindex/swap.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { generationBuild } from '../../../support/generationBuilds.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';
import { rejectionOf } from '../../../support/rejection.js';

const OLD = generationName('ppas', 1);
const NEW = generationName('ppas', 2);
const LOG = 'ppas-changes';

const head = (es: FakeElasticsearch) => (es.sources(LOG).get(HEAD_ID) as { log: ChangeLogHead }).log;

/** The live generation (a, b, c) and a new one (a, b changed, d) as a load leaves it, with what it noted. */
function twoGenerations(es: FakeElasticsearch): BuiltEntries {
  addGeneration(es, OLD, ['a', 'b', 'c'], { live: true });
  const incoming = [ppaRecord('a'), ppaRecord('b', { capacity_mw: 7 }), ppaRecord('d')];
  addGeneration(es, NEW, incoming);
  const built = new BuiltEntries();
  for (const record of incoming) built.add(record.slug, buildDocument(record).content_hash);
  return built;
}

describe('indexer/reindex/swap', () => {
  const locks: { release(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const lock of locks.splice(0)) await lock.release().catch(() => undefined);
  });
  const build = async (es: FakeElasticsearch, options = {}, previousIndex: string | null = OLD) => {
    const made = await generationBuild(es, { index: NEW, previousIndex, options });
    locks.push(made.lock);
    return made;
  };

  it('gives a first generation the alias and an empty log, comparing nothing', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, NEW, ['a']);
    let swapped = false;
    const changes = await swapPhase(await build(es, {}, null), new BuiltEntries(), () => (swapped = true));
    expect(changes).to.equal(null);
    expect(swapped).to.equal(true);
    expect(es.aliasTarget('ppas')).to.equal(NEW);
    expect(head(es)).to.include({ seq: 0, pending_to: 0 });
  });

  it('logs the changes against the live generation, swaps, then publishes them', async () => {
    const es = fakeElasticsearch();
    const built = twoGenerations(es);
    const run = await build(es, { maxRemoved: { count: 1 } });
    run.unpublished.add('c');
    let swapped = false;
    const changes = await swapPhase(run, built, () => (swapped = true));
    expect(changes).to.deep.equal({ added: 1, updated: 1, removed: 1, unchanged: 1 });
    expect(swapped).to.equal(true);
    expect(es.aliasTarget('ppas')).to.equal(NEW);
    expect(head(es)).to.include({ seq: 3, pending_to: 3, pending_index: null });
    const reasons = [1, 2, 3].map(
      (seq) => (es.sources(LOG).get(String(seq)) as { change: { reason: string } }).change.reason,
    );
    expect(reasons).to.deep.equal(['updated', 'unpublished', 'published']);
    // Events are written before the alias moves (a writer dying in between leaves them pending, for its index),
    // and made visible only after.
    const steps = es.requests().map((request) => request.split(' ')[1]);
    const events = steps.indexOf('/_bulk');
    const swap = steps.indexOf('/_aliases');
    const publish = steps.lastIndexOf(`/${LOG}/_refresh`);
    expect(events).to.be.within(0, swap);
    expect(publish).to.be.greaterThan(swap);
    // The new index was not read: the load's notes stood for it.
    expect(es.calls.filter((call) => call.path === `/${NEW}/_search`)).to.deep.equal([]);
  });

  it('reads the new index when a catch-up changed it after the load', async () => {
    const es = fakeElasticsearch();
    twoGenerations(es);
    const changes = await swapPhase(
      await build(es, { maxRemoved: { count: 1 } }),
      { index: NEW, bounds: ['b'] },
      () => undefined,
    );
    expect(changes).to.deep.equal({ added: 1, updated: 1, removed: 1, unchanged: 1 });
    expect(es.calls.some((call) => call.path === `/${NEW}/_search`)).to.equal(true);
  });

  it('stops before the swap past --max-removed: the alias stays and no event is left', async () => {
    const es = fakeElasticsearch();
    const built = twoGenerations(es);
    let swapped = false;
    const error = await rejectionOf(
      swapPhase(await build(es, { maxRemoved: { count: 0 } }), built, () => (swapped = true)),
    );
    expect(error).to.be.instanceOf(MassRemovalError);
    expect(swapped).to.equal(false);
    expect(es.aliasTarget('ppas')).to.equal(OLD);
    expect(head(es)).to.include({ seq: 0, pending_to: 0 });
    expect([...es.sources(LOG).keys()]).to.deep.equal([HEAD_ID]);
  });

  it('does not swap once another run took the lock, nor once the run is aborted', async () => {
    const es = fakeElasticsearch();
    const built = twoGenerations(es);
    const run = await build(es, { maxRemoved: { count: 1 } });
    // The lock expired and another run took it: our extension right before the swap is refused.
    const taken = { alias: 'ppas', owner: 'host-b pid 2', acquired_at: 'x', expires_at: Date.now() + 60_000 };
    await es.client.index({ index: LOCK_INDEX, id: 'ppas', document: taken });
    expect(await rejectionOf(swapPhase(run, built, () => undefined))).to.have.nested.property(
      'meta.statusCode',
      409,
    );
    expect(() => run.lock.assertHeld()).to.throw(LockLostError);
    expect(es.aliasTarget('ppas')).to.equal(OLD);
    expect(head(es)).to.include({ seq: 0, pending_to: 0 });

    const again = fakeElasticsearch();
    const noted = twoGenerations(again);
    const controller = new AbortController();
    controller.abort('SIGINT');
    const aborted = await rejectionOf(
      swapPhase(
        await build(again, { signal: controller.signal, maxRemoved: { count: 1 } }),
        noted,
        () => undefined,
      ),
    );
    expect(aborted).to.be.instanceOf(InterruptedError);
    expect(again.aliasTarget('ppas')).to.equal(OLD);
  });
});
