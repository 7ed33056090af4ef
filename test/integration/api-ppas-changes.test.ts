// Acceptance of the change log (docs/api.md, "Changes and feeds"): a mirror that takes an export and follows
// GET /api/v1/ppas/changes from its Changes-Since holds exactly the live list after sync changes of every kind, a
// reindex that adds, updates and removes, and a rollback; filters and q apply to events, removals included; the
// Atom feed parses in a real feed reader and keeps the RFC's MUSTs, answers 304, holds only matching events; a
// token older than the retention is 410. Real PostgreSQL, sync --follow as a child process, the API with its
// response cache at the default size.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { ChangeLog } from '../../indexer/changes/changeLog.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { rollback } from '../../indexer/reindex/rollback.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { loadConfig } from '../../src/config.js';
import { validateAtom } from '../support/atom.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { startCli, type RunningCli } from '../support/indexerCliProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';
import { within } from '../support/within.js';

interface Item {
  slug: string;
  active?: boolean;
  technology: string;
  [field: string]: unknown;
}
interface Event {
  token: string;
  type: 'upsert' | 'remove';
  reason: string;
  slug: string;
  at: string;
  item: Item;
}
interface ChangesBody {
  data: Event[];
  meta: { next: string; retained_since: string };
  links: { self: string; next: string };
}

const sample = readFileSync(SAMPLE_PATH, 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => JSON.parse(line) as PpaRecord);
const live = sample.filter((record) => record.published && record.active);
const inactive = sample.filter((record) => record.published && !record.active);

describe('api: the change log, followed by a mirror, and its feed', function () {
  this.timeout(300_000);
  const client = testEsClient();
  const alias = uniqueName('api-changes');
  let db: TestDatabase;
  let app: TestApp;
  let sync: RunningCli | undefined;

  const startSync = async (): Promise<void> => {
    sync = startCli(['sync', '--follow', '--alias', alias, '--interval', '1', '--reconcile-every', '2'], {
      DATABASE_URL: db.url,
    });
    await sync.waitForStderr('following changes');
  };
  const stopSync = async (): Promise<void> => {
    if (sync && sync.child.exitCode === null) {
      sync.child.kill('SIGTERM');
      await sync.result;
    }
    sync = undefined;
  };
  const get = async (path: string, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${app.url}${path}`, { headers });
  const changes = async (query: string): Promise<ChangesBody> => {
    const response = await get(`/api/v1/ppas/changes?${query}`);
    expect(response.status, await response.clone().text()).to.equal(200);
    return (await response.json()) as ChangesBody;
  };
  /** Every event after `since`, following meta.next until an answer is empty. */
  const follow = async (since: string, filter = ''): Promise<{ events: Event[]; next: string }> => {
    const events: Event[] = [];
    let next = since;
    for (;;) {
      const body = await changes(`since=${next}&limit=1000${filter ? `&${filter}` : ''}`);
      events.push(...body.data);
      if (body.data.length === 0) return { events, next: body.meta.next };
      next = body.meta.next;
    }
  };
  const exportAll = async (): Promise<{ items: Map<string, Item>; since: string }> => {
    const response = await get('/api/v1/ppas/export?format=ndjson');
    expect(response.status).to.equal(200);
    const since = response.headers.get('changes-since');
    expect(since, 'Changes-Since header').to.be.a('string');
    expect(response.headers.get('access-control-expose-headers')).to.include('Changes-Since');
    const items = new Map<string, Item>();
    for (const line of (await response.text()).trimEnd().split('\n')) {
      if (!line) continue;
      const item = JSON.parse(line) as Item;
      items.set(item.slug, item);
    }
    return { items, since: since! };
  };
  const apply = (mirror: Map<string, Item>, events: Event[]): void => {
    for (const { type, slug, item } of events) {
      const { active, ...listed } = item;
      if (type === 'upsert' && active) mirror.set(slug, listed as Item);
      else mirror.delete(slug);
    }
  };
  const status = async (slug: string): Promise<number> => (await get(`/api/v1/ppas/${slug}`)).status;

  before(async () => {
    db = await createTestDatabase({ seed: true });
    await reindex({ client, alias, source: db.url });
    app = await buildTestApp({
      alias,
      configOverrides: { responseCacheBytes: loadConfig({}).responseCacheBytes },
    });
    await startSync();
  });
  after(async () => {
    await stopSync();
    await app?.close();
    await deleteIndices(client, alias);
    await db?.drop();
    await client.close();
  });

  it('a mirror from an export plus the changes equals the live list after sync, a reindex and a rollback', async () => {
    const { items: mirror, since } = await exportAll();
    expect(mirror.size).to.equal(live.length);
    const [unpublished, edited, deactivated, deleted, reindexUpdated, reindexRemoved] = live;
    const reactivated = inactive[0]!;

    // Sync: every kind of change, each waited for until served.
    await db.query('UPDATE ppas SET published = false WHERE slug = $1', [unpublished!.slug]);
    await db.query('UPDATE ppas SET capacity_mw = capacity_mw + 1 WHERE slug = $1', [edited!.slug]);
    await db.query('UPDATE ppas SET active = false WHERE slug = $1', [deactivated!.slug]);
    await db.query('UPDATE ppas SET active = true WHERE slug = $1', [reactivated.slug]);
    const added = { ...live[10]!, slug: uniqueName('mirror-new'), project_name: 'Mirror Test Solar' };
    added.reference_code = added.slug.toUpperCase();
    await db.query('SELECT ppa_upsert_record($1::jsonb)', [
      JSON.stringify({ ...added, updated_at: new Date().toISOString() }),
    ]);
    await db.query('DELETE FROM ppas WHERE slug = $1', [deleted!.slug]);
    await within(20_000, 'sync changes served', async () => {
      return (
        (await status(unpublished!.slug)) === 404 &&
        (await status(added.slug)) === 200 &&
        (await status(deleted!.slug)) === 404
      );
    });

    // A reindex that adds, updates and removes: changes made while sync is stopped reach the index only by it.
    await stopSync();
    const reindexAdded = { ...live[11]!, slug: uniqueName('mirror-reindexed'), project_name: 'Reindex Wind' };
    reindexAdded.reference_code = reindexAdded.slug.toUpperCase();
    await db.query('SELECT ppa_upsert_record($1::jsonb)', [
      JSON.stringify({ ...reindexAdded, updated_at: new Date().toISOString() }),
    ]);
    await db.query('UPDATE ppas SET capacity_mw = capacity_mw + 2 WHERE slug = $1', [reindexUpdated!.slug]);
    await db.query('UPDATE ppas SET published = false WHERE slug = $1', [reindexRemoved!.slug]);
    const summary = await reindex({ client, alias, source: db.url });
    expect(summary.changes).to.include({ added: 1, updated: 1, removed: 1 });

    // A rollback: back to the generation before, a set of changes like any other.
    const rolledBack = await rollback(client, alias);
    expect(rolledBack.changes).to.include({ added: 1, updated: 1, removed: 1 });
    expect(await status(reindexAdded.slug)).to.equal(404);

    // Sync again, on the generation the rollback made live: it replays what that one had not seen.
    await startSync();
    await within(
      30_000,
      'sync caught up after the rollback',
      async () => (await status(reindexAdded.slug)) === 200,
    );

    let events: Event[] = [];
    await within(30_000, 'the mirror equals the live list', async () => {
      const followed = await follow(since);
      events = followed.events;
      const copy = new Map(mirror);
      apply(copy, events);
      const { items: now } = await exportAll();
      const same =
        JSON.stringify([...copy.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) ===
        JSON.stringify([...now.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
      return same && now.has(reindexAdded.slug) && !now.has(reindexRemoved!.slug);
    });
    const reasons = new Set(events.map((event) => event.reason));
    for (const reason of ['published', 'updated', 'deactivated', 'reactivated', 'unpublished', 'deleted'])
      expect(reasons, reason).to.include(reason);
    const sequences = events.map((event) => Number(event.token.split('.')[1]));
    expect(sequences, 'tokens only grow').to.deep.equal([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).to.equal(sequences.length);
    const removal = events.find((event) => event.slug === unpublished!.slug)!;
    expect(removal).to.include({ type: 'remove', reason: 'unpublished' });
    expect(removal.item.project_name, 'a removal carries the PPA as last served').to.equal(
      unpublished!.project_name,
    );
    const deactivation = events.find((event) => event.slug === deactivated!.slug)!;
    expect(deactivation).to.include({ type: 'upsert', reason: 'deactivated' });
    expect(deactivation.item.active).to.equal(false);
  });

  it('filters and q apply to events, removals included; the list tells where to follow from', async () => {
    const { items: before, since } = await exportAll();
    const victim =
      [...before.values()].find((item) => item.technology === 'hydro') ?? [...before.values()][0]!;
    const technology = victim.technology;
    await db.query('UPDATE ppas SET published = false WHERE slug = $1', [victim.slug]);
    await within(15_000, 'unpublished', async () => (await status(victim.slug)) === 404);

    const filtered = await follow(since, `technology=${technology}`);
    expect(filtered.events.length).to.be.above(0);
    expect(filtered.events.every((event) => event.item.technology === technology)).to.equal(true);
    expect(filtered.events.some((event) => event.slug === victim.slug && event.type === 'remove')).to.equal(
      true,
    );
    const other = await follow(since, `technology=${technology === 'hydro' ? 'solar_pv' : 'hydro'}`);
    expect(other.events.some((event) => event.slug === victim.slug)).to.equal(false);
    const word = String(victim.project_name).split(' ')[0]!;
    const byName = await follow(since, `q=${encodeURIComponent(word)}`);
    expect(byName.events.some((event) => event.slug === victim.slug)).to.equal(true);

    // A list answer computed after the change (the cache moved on with it) tells a later position.
    const [sinceEpoch, sinceSeq] = since.split('.');
    await within(10_000, 'changes_since moved on', async () => {
      const list = (await (await get('/api/v1/ppas?per_page=1')).json()) as {
        meta: { changes_since: string };
      };
      const [listEpoch, listSeq] = list.meta.changes_since.split('.');
      expect(listEpoch).to.equal(sinceEpoch);
      return Number(listSeq) > Number(sinceSeq);
    });
    // Followed from the newest position, nothing is left to apply.
    expect((await follow(filtered.next)).events.every((event) => event.slug !== victim.slug)).to.equal(true);
  });

  it('bad and foreign positions: 400 names since, a token of another log is 410', async () => {
    const bad = await get('/api/v1/ppas/changes?since=yesterday&page=2');
    expect(bad.status).to.equal(400);
    const problem = (await bad.json()) as { invalid_params: { name: string }[] };
    expect(problem.invalid_params.map((param) => param.name).sort()).to.deep.equal(['page', 'since']);
    const gone = await get('/api/v1/ppas/changes?since=someotherlog.5');
    expect(gone.status).to.equal(410);
    expect(gone.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(((await gone.json()) as { detail: string }).detail).to.match(/export/);
    const byTime = await changes(
      `since=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`,
    );
    expect(byTime.data.length).to.be.above(0);
  });

  it('the feed: a valid Atom document of matching events (removals too), 304 when unchanged', async () => {
    const { items } = await exportAll();
    const victim = [...items.values()].find((item) => item.technology === 'solar_pv')!;
    await db.query('UPDATE ppas SET published = false WHERE slug = $1', [victim.slug]);
    await within(15_000, 'unpublished', async () => (await status(victim.slug)) === 404);
    await within(10_000, 'in the feed', async () => {
      const xml = await (await get('/api/v1/ppas/feed?technology=solar_pv')).text();
      return xml.includes(`/api/v1/ppas/${victim.slug}`);
    });
    const response = await get('/api/v1/ppas/feed?technology=solar_pv');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/atom+xml; charset=utf-8');
    const xml = await response.text();
    const feed = await validateAtom(xml);
    expect(feed.entries.length).to.be.within(1, 50);
    const withdrawn = feed.entries.find((entry) => entry.link?.endsWith(`/api/v1/ppas/${victim.slug}`));
    expect(withdrawn?.titleText).to.match(/^Withdrawn: /);
    expect(feed.entries.every((entry) => (entry.summary ?? '').startsWith('solar_pv'))).to.equal(true);
    const ids = feed.entries.map((entry) => entry.id);
    expect(new Set(ids).size).to.equal(ids.length);
    // Stable ids: asked again, the same entries carry the same ids.
    const again = await validateAtom(await (await get('/api/v1/ppas/feed?technology=solar_pv')).text());
    expect(again.entries.map((entry) => entry.id)).to.deep.equal(ids);

    const etag = response.headers.get('etag')!;
    const lastModified = response.headers.get('last-modified')!;
    expect((await get('/api/v1/ppas/feed?technology=solar_pv', { 'If-None-Match': etag })).status).to.equal(
      304,
    );
    expect(
      (await get('/api/v1/ppas/feed?technology=solar_pv', { 'If-Modified-Since': lastModified })).status,
    ).to.equal(304);
    const older = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect(
      (await get('/api/v1/ppas/feed?technology=solar_pv', { 'If-Modified-Since': older })).status,
    ).to.equal(200);
    // Another technology's feed never holds this PPA.
    const hydro = await (await get('/api/v1/ppas/feed?technology=hydro')).text();
    expect(hydro).to.not.include(`/api/v1/ppas/${victim.slug}<`);
  });

  it('a token older than the retention is 410, telling the client to export again', async () => {
    const { since } = await exportAll();
    const target = live[20]!;
    await db.query('UPDATE ppas SET capacity_mw = capacity_mw + 3 WHERE slug = $1', [target.slug]);
    await within(15_000, 'edited', async () =>
      (await follow(since)).events.some((e) => e.slug === target.slug),
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // A writer with a retention of about a second prunes the event just followed.
    await stopSync();
    const log = new ChangeLog(client, alias, { retentionDays: 1 / 86_400, pruneEveryMs: 0 });
    await log.write(async () => undefined);
    await within(
      10_000,
      '410',
      async () => (await get(`/api/v1/ppas/changes?since=${since}`)).status === 410,
    );
    const gone = await get(`/api/v1/ppas/changes?since=${since}`);
    expect(((await gone.json()) as { detail: string }).detail).to.match(/no longer kept.*export/);
    await startSync();
  });
});
