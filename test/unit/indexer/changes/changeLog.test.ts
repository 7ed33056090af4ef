// changes/changeLog: the change log's one writer. Over the fake Elasticsearch (searches see only what a refresh made
// visible, as the log's own refresh is off): the log and its head made once; a session's events numbered after the
// head, invisible until published, and visible all at once; events taken back when the work fails or leaves them
// unpublished, kept once the change they describe happened; a dead writer's pending events published when true and
// deleted otherwise; writers one at a time; retention pruning old events by id and moving the live data version on.
import { expect } from 'chai';
import { HEAD_ID, type ChangeLogHead } from '../../../../indexContract/changeLog.js';
import type { IndexDocument } from '../../../../indexContract/document.js';
import {
  ChangeLog,
  changeLogDefinition,
  type ChangeLogSession,
} from '../../../../indexer/changes/changeLog.js';
import { AliasLock } from '../../../../indexer/elasticsearch/lock.js';
import { LockedError } from '../../../../indexer/errors.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, documentsOf, generationName } from '../../../support/generations.js';
import { rejectionOf } from '../../../support/rejection.js';

const LOG = 'ppas-changes';

const head = (es: FakeElasticsearch) => (es.sources(LOG).get(HEAD_ID) as { log: ChangeLogHead }).log;

/** The events a reader can find now: searchable, in sequence order. */
async function visibleEvents(
  es: FakeElasticsearch,
): Promise<{ seq: number; reason: string; slug: string }[]> {
  const found = await es.client.search<IndexDocument & { change: { seq: number; reason: string } }>({
    index: LOG,
    size: 1000,
    query: { exists: { field: 'change' } },
    sort: [{ 'change.seq': 'asc' }],
  });
  return found.hits.hits.map(({ _source }) => ({
    seq: _source!.change.seq,
    reason: _source!.change.reason,
    slug: _source!.slug,
  }));
}

const upserts = (...slugs: string[]) =>
  documentsOf(slugs).map((document) => ({ reason: 'published' as const, document }));

describe('indexer/changes/changeLog', () => {
  it('makes the log once, refresh off, with its head at sequence 0; an existing log keeps its head', async () => {
    const es = fakeElasticsearch();
    await new ChangeLog(es.client, 'ppas').ensure();
    expect(es.indices.get(LOG)!.settings).to.include({ refresh_interval: '-1', number_of_shards: 1 });
    expect(es.indices.get(LOG)!.mappings.properties).to.have.property('change');
    const first = head(es);
    expect(first).to.include({
      seq: 0,
      pending_to: 0,
      pending_index: null,
      pruned_through: 0,
      last_at: null,
    });
    expect(first.epoch).to.match(/^[A-Za-z0-9]{8}$/);
    await new ChangeLog(es.client, 'ppas').ensure();
    expect(head(es)).to.deep.equal(first);
    expect(es.requests().filter((request) => request === `PUT /${LOG}/_mapping`)).to.have.length(1);
    expect(Object.keys(changeLogDefinition().mappings.properties!)).to.include.members([
      'slug',
      'change',
      'log',
    ]);
  });

  it('numbers a session’s events after the head and shows them only when published, all at once', async () => {
    const es = fakeElasticsearch();
    const log = new ChangeLog(es.client, 'ppas');
    const seen: unknown[][] = [];
    const last = await log.write(async (session) => {
      await session.append(upserts('a', 'b'), null);
      seen.push(await visibleEvents(es));
      await session.append([{ reason: 'deleted', document: documentsOf(['c'])[0]! }], null);
      await session.publish();
      return session.lastSeq;
    });
    expect(seen).to.deep.equal([[]]);
    expect(last).to.equal(3);
    expect(await visibleEvents(es)).to.deep.equal([
      { seq: 1, reason: 'published', slug: 'a' },
      { seq: 2, reason: 'published', slug: 'b' },
      { seq: 3, reason: 'deleted', slug: 'c' },
    ]);
    expect(head(es)).to.include({ seq: 3, pending_to: 3 });
    const event = es.sources(LOG).get('3') as { change: Record<string, unknown> };
    expect(event.change).to.include({ seq: 3, type: 'remove', reason: 'deleted' });
    expect(head(es).last_at).to.equal(event.change.at);
    await log.write(async (session) => {
      await session.append(upserts('d'), null);
      await session.publish();
    });
    expect((await visibleEvents(es)).map((event) => event.seq)).to.deep.equal([1, 2, 3, 4]);
  });

  it('takes back the events of work that fails, or that leaves them unpublished', async () => {
    const es = fakeElasticsearch();
    const log = new ChangeLog(es.client, 'ppas');
    const failed = await rejectionOf(
      log.write(async (session) => {
        await session.append(upserts('a', 'b'), null);
        throw new Error('the bulk failed');
      }),
    );
    expect(String(failed)).to.include('the bulk failed');
    await log.write(async (session) => session.append(upserts('c'), 'ppas-1'));
    expect(head(es)).to.include({ seq: 0, pending_to: 0, pending_index: null });
    expect([...es.sources(LOG).keys()]).to.deep.equal([HEAD_ID]);
    await log.write(async (session) => {
      await session.append(upserts('d'), null);
      await session.publish();
    });
    expect(await visibleEvents(es)).to.deep.equal([{ seq: 1, reason: 'published', slug: 'd' }]);
  });

  it('keeps the events of a change that happened when publishing fails, for the next writer to publish', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, generationName('ppas', 2), ['a'], { live: true });
    const log = new ChangeLog(es.client, 'ppas');
    const refresh = es.intercept((call) =>
      call.path === `/${LOG}/_refresh`
        ? { status: 500, body: { error: { type: 'refresh_failed' }, status: 500 } }
        : undefined,
    );
    await rejectionOf(
      log.write(async (session: ChangeLogSession) => {
        await session.append(upserts('a'), generationName('ppas', 2));
        session.markHappened(); // the swap was made
        await session.publish();
      }),
    );
    refresh();
    expect(head(es)).to.include({ seq: 0, pending_to: 1, pending_index: generationName('ppas', 2) });
    // The next writer finds the alias on the events' index: they are true, and published before its own.
    await log.write(async (session) => {
      await session.append(upserts('b'), null);
      await session.publish();
    });
    expect((await visibleEvents(es)).map(({ seq, slug }) => [seq, slug])).to.deep.equal([
      [1, 'a'],
      [2, 'b'],
    ]);
  });

  it('deletes a dead writer’s events of a swap that never happened', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, generationName('ppas', 1), ['a'], { live: true });
    const log = new ChangeLog(es.client, 'ppas');
    await log.ensure();
    // A writer died after appending events for a swap to minute 2's index, which never became live.
    const dead = { ...head(es), pending_to: 2, pending_index: generationName('ppas', 2) };
    await es.client.index({ index: LOG, id: HEAD_ID, document: { log: dead } });
    await es.client.index({ index: LOG, id: '1', document: { slug: 'x', change: { seq: 1 } } });
    await es.client.index({ index: LOG, id: '2', document: { slug: 'y', change: { seq: 2 } } });
    await log.write(async (session) => {
      expect(session.head).to.include({ seq: 0, pending_to: 0 });
      await session.append(upserts('b'), null);
      await session.publish();
    });
    expect(await visibleEvents(es)).to.deep.equal([{ seq: 1, reason: 'published', slug: 'b' }]);
  });

  it('lets one writer in at a time: a second waits for the lock, and gives up after lockWaitMs', async () => {
    const es = fakeElasticsearch();
    const log = new ChangeLog(es.client, 'ppas');
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = log.write(async () => {
      order.push('first in');
      await held;
      order.push('first out');
    });
    while (order.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const second = log.write(async () => void order.push('second in'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await Promise.all([first, second]);
    expect(order).to.deep.equal(['first in', 'first out', 'second in']);

    const other = await AliasLock.acquire(es.client, 'ppas', { guards: 'changeLog' });
    const impatient = new ChangeLog(es.client, 'ppas', { lockWaitMs: 0 });
    expect(await rejectionOf(impatient.write(async () => undefined))).to.be.instanceOf(LockedError);
    await other.release();
  });

  it('prunes events older than the retention by id, records how far, and moves the live data version on', async () => {
    const es = fakeElasticsearch();
    const live = addGeneration(es, generationName('ppas', 1), ['a'], {
      live: true,
      meta: { data_version: 7 },
    });
    const log = new ChangeLog(es.client, 'ppas', { retentionDays: 30, pruneEveryMs: 0 });
    await log.ensure();
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const recent = new Date(Date.now() - 86_400_000).toISOString();
    const event = (seq: number, at: string) =>
      es.client.index({
        index: LOG,
        id: String(seq),
        document: { slug: `s${seq}`, change: { seq, at } },
        refresh: true,
      });
    await es.client.index({
      index: LOG,
      id: HEAD_ID,
      document: { log: { ...head(es), seq: 3, pending_to: 3 } },
    });
    for (const [seq, at] of [
      [1, old],
      [2, old],
      [3, recent],
    ] as const)
      await event(seq, at);
    await log.write(async () => undefined);
    expect([...es.sources(LOG).keys()].sort()).to.deep.equal(['3', HEAD_ID]);
    expect(head(es).pruned_through).to.equal(2);
    expect(Date.parse(head(es).retained_since)).to.be.closeTo(Date.now() - 30 * 86_400_000, 60_000);
    expect(live.mappings._meta).to.include({ data_version: 8 });
    // A writer looks for old events at most every pruneEveryMs (default 10 minutes).
    const pruneSearches = () => es.calls.filter((call) => call.path === `/${LOG}/_search`).length;
    const before = pruneSearches();
    const patient = new ChangeLog(es.client, 'ppas', { retentionDays: 30 });
    await patient.write(async () => undefined);
    await patient.write(async () => undefined);
    expect(pruneSearches() - before).to.equal(1);
    expect(live.mappings._meta, 'nothing more pruned: the data version stays').to.include({
      data_version: 8,
    });
  });

  it('fails a session whose event the log refuses', async () => {
    const es = fakeElasticsearch();
    es.refuseItems((index) =>
      index === LOG
        ? { status: 400, type: 'strict_dynamic_mapping_exception', reason: 'field [x]' }
        : undefined,
    );
    const error = await rejectionOf(
      new ChangeLog(es.client, 'ppas').write((session) => session.append(upserts('a'), null)),
    );
    expect(String(error)).to.include('the change log refused an event: field [x]');
    expect(head(es)).to.include({ seq: 0, pending_to: 0 });
  });
});
