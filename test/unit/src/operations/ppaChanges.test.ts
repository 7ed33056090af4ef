// GET /api/v1/ppas/changes: where the events start (after a token, from a time, or the oldest retained), the 410s
// of a token or time the log no longer holds, the 503 while no log exists, what it asks the change log for (the
// filters without "active only", oldest first, limit) and where the next request goes on from. Driven through Koa
// in-process over a recording gateway and a live state with a head of the test's own.
import { expect } from 'chai';
import type { ChangeLogHead } from '../../../../indexContract/changeLog.js';
import type { ListSource } from '../../../../indexContract/sourceFields.js';
import { OPERATIONS } from '../../../../src/operations/catalog.js';
import { ppaChanges } from '../../../../src/operations/ppaChanges.js';
import type { ChangeEventSource } from '../../../../src/queries/changesSearch.js';
import { SearchUnavailableError } from '../../../../src/gateway/searchErrors.js';
import { jsonOf } from '../../../support/koaServer.js';
import { liveStateOf } from '../../../support/liveState.js';
import { cachedAnswers } from '../../../support/operationDeps.js';
import { failing, filterClauses, searchResponse } from '../../../support/recordingGateway.js';
import { servedStateOf } from '../../../support/servedState.js';
import { operationServers } from '../../../support/servedOperations.js';
import { listSource } from '../../../support/sources.js';

/** The log's head: events up to 50 visible, those up to 10 pruned. */
const HEAD: Partial<ChangeLogHead> = {
  epoch: 'k3xq9a',
  seq: 50,
  pending_to: 50,
  pruned_through: 10,
  retained_since: '2026-08-28T08:00:00.000Z',
};

const event = (seq: number, source: ListSource = listSource): ChangeEventSource => ({
  ...source,
  active: seq % 2 === 0,
  change: {
    seq,
    type: 'upsert',
    reason: 'updated',
    at: `2026-11-26T08:00:${String(seq % 60).padStart(2, '0')}Z`,
  },
});

interface ChangesBody {
  data: {
    token: string;
    type: string;
    reason: string;
    slug: string;
    at: string;
    item: Record<string, unknown>;
  }[];
  meta: { next: string; retained_since: string };
  links: { self: string; next: string };
}

describe('operations/ppaChanges: GET /api/v1/ppas/changes', () => {
  const serve = operationServers([ppaChanges]);
  const serveAll = operationServers(OPERATIONS);
  /** Served over a log with `head` whose search answers `events`. */
  const overLog = (events: ChangeEventSource[], head: Partial<ChangeLogHead> | null = HEAD) =>
    serve(
      { searchChangeLog: () => searchResponse(events) },
      { liveState: liveStateOf({ servedState: async () => servedStateOf(head) }) },
    );

  it('without since: the oldest retained events matching the filters, oldest first, deactivated ones too', async () => {
    const served = await overLog([event(12), event(13)]);
    const answer = await served.get('/api/v1/ppas/changes?technology=solar_pv');
    expect(answer.status).to.equal(200);
    expect(answer.headers['cache-control']).to.equal('public, max-age=60');
    expect(served.calls.map((call) => call.method)).to.deep.equal(['searchChangeLog']);
    const [request] = served.requests('searchChangeLog');
    expect([request?.size, request?.sort]).to.deep.equal([100, [{ 'change.seq': 'asc' }]]);
    const clauses = filterClauses(request);
    expect(clauses).to.deep.include.members([
      { range: { 'change.seq': { gt: 10 } } },
      { terms: { technology: ['solar_pv'] } },
    ]);
    expect(clauses).to.not.deep.include({ term: { active: true } });

    const body = jsonOf<ChangesBody>(answer);
    expect(body.data.map((item) => [item.token, item.slug, item.item.active])).to.deep.equal([
      ['k3xq9a.12', 'kahone-solar', true],
      ['k3xq9a.13', 'kahone-solar', false],
    ]);
    expect(body.data[0]?.item.url).to.equal(`${served.server.base}/api/v1/ppas/kahone-solar`);
    // A short page saw every match up to the head: it goes on from there.
    expect(body.meta).to.deep.equal({ next: 'k3xq9a.50', retained_since: '2026-08-28T08:00:00.000Z' });
    expect(body.links).to.deep.equal({
      self: `${served.server.base}/api/v1/ppas/changes?technology=solar_pv`,
      next: `${served.server.base}/api/v1/ppas/changes?technology=solar_pv&since=k3xq9a.50`,
    });
  });

  it('after a token: a full page goes on after its last event, a short one from the head, never backwards', async () => {
    const cases: [string, ChangeEventSource[], string][] = [
      ['since=k3xq9a.20&limit=2', [event(21), event(23)], 'k3xq9a.23'],
      ['since=k3xq9a.20&limit=3', [event(21), event(23)], 'k3xq9a.50'],
      ['since=k3xq9a.20', [], 'k3xq9a.50'],
      // A token past the head (the head read was older than the token's answer): it stays where it was.
      ['since=k3xq9a.60', [], 'k3xq9a.60'],
      // Exactly what the log still holds: not gone.
      ['since=k3xq9a.10', [], 'k3xq9a.50'],
    ];
    for (const [querystring, events, next] of cases) {
      const served = await overLog(events);
      const answer = await served.get(`/api/v1/ppas/changes?${querystring}`);
      expect(answer.status, querystring).to.equal(200);
      expect(jsonOf<ChangesBody>(answer).meta.next, querystring).to.equal(next);
      const [request] = served.requests('searchChangeLog');
      const after = Number(/since=k3xq9a\.(\d+)/.exec(querystring)?.[1]);
      expect(filterClauses(request), querystring).to.deep.include({ range: { 'change.seq': { gt: after } } });
      expect(request?.size, querystring).to.equal(Number(/limit=(\d+)/.exec(querystring)?.[1] ?? 100));
    }
  });

  it('from an RFC 3339 time: the events from then on, the time read in UTC', async () => {
    const served = await overLog([]);
    const answer = await served.get(
      `/api/v1/ppas/changes?since=${encodeURIComponent('2026-11-26T09:30:00+01:00')}`,
    );
    expect(answer.status).to.equal(200);
    expect(filterClauses(served.requests('searchChangeLog')[0])).to.deep.include({
      range: { 'change.at': { gte: '2026-11-26T08:30:00.000Z' } },
    });
    expect(jsonOf<ChangesBody>(answer).meta.next).to.equal('k3xq9a.50');
  });

  it('410 for a since the log no longer holds (pruned, or of a log made anew), without a search', async () => {
    const cases: [string, Partial<ChangeLogHead>, RegExp][] = [
      [
        'since=zz9.30',
        HEAD,
        /^This token is from another change log \(it was made anew\)\. Take a new export/,
      ],
      [
        'since=k3xq9a.9',
        HEAD,
        /^Changes before 2026-08-28T08:00:00\.000Z are no longer kept \(the retention\)\./,
      ],
      ['since=2026-08-28T07:59:59Z', HEAD, /^Changes before 2026-08-28T08:00:00\.000Z are no longer kept/],
    ];
    for (const [querystring, head, detail] of cases) {
      const served = await overLog([], head);
      const answer = await served.get(`/api/v1/ppas/changes?${querystring}`);
      expect([answer.status, jsonOf(answer).title], querystring).to.deep.equal([410, 'Gone']);
      expect(String(jsonOf(answer).detail), querystring).to.match(detail);
      expect(String(jsonOf(answer).detail), querystring).to.include('GET /api/v1/ppas/export');
      expect(served.calls, querystring).to.deep.equal([]);
    }
    // A time before retained_since while nothing was pruned yet: the log holds everything, so it is answered.
    const unpruned = await overLog([], { ...HEAD, pruned_through: 0 });
    expect((await unpruned.get('/api/v1/ppas/changes?since=2026-08-28T07:59:59Z')).status).to.equal(200);
  });

  it('503 while no change log exists, or its head cannot be read; no search', async () => {
    const noLog = await overLog([], null);
    const before = await noLog.get('/api/v1/ppas/changes');
    expect([before.status, before.headers['retry-after']]).to.deep.equal([503, '30']);
    expect(String(jsonOf(before).detail)).to.include('The change log has not started yet');
    expect(noLog.calls).to.deep.equal([]);

    const unreadable = await serve({}, { liveState: liveStateOf({}) });
    const failed = await unreadable.get('/api/v1/ppas/changes');
    expect([failed.status, failed.headers['retry-after']]).to.deep.equal([503, '5']);
  });

  it("answers the change log's search failing as a 503 problem", async () => {
    const served = await serve(
      { searchChangeLog: failing(new SearchUnavailableError('unreachable')) },
      { liveState: liveStateOf({ servedState: async () => servedStateOf(HEAD) }) },
    );
    const answer = await served.get('/api/v1/ppas/changes');
    expect([answer.status, answer.headers['retry-after']]).to.deep.equal([503, '5']);
    expect(answer.headers['content-type']).to.equal('application/problem+json');
  });

  it('keys its answer by the canonical query: the same request written otherwise is one search', async () => {
    let heads = 0;
    const served = await serve(
      { searchChangeLog: () => searchResponse([event(21)]) },
      {
        answer: cachedAnswers(),
        liveState: liveStateOf({
          servedState: async () => {
            heads++;
            return servedStateOf(HEAD);
          },
        }),
      },
    );
    const first = await served.get('/api/v1/ppas/changes?technology=wind&since=k3xq9a.20');
    const again = await served.get('/api/v1/ppas/changes?since=k3xq9a.20&q=&technology=wind');
    expect(again.body.equals(first.body)).to.equal(true);
    expect([served.calls.length, heads]).to.deep.equal([1, 1]);
    expect(jsonOf<ChangesBody>(first).links.self).to.equal(
      `${served.server.base}/api/v1/ppas/changes?since=k3xq9a.20&technology=wind`,
    );
  });

  it('refuses a bad since, a bad limit and paging with a 400 naming each, without a lookup', async () => {
    let heads = 0;
    const served = await serveAll(
      {},
      {
        liveState: liveStateOf({
          servedState: async () => {
            heads++;
            return servedStateOf(HEAD);
          },
        }),
      },
    );
    const answer = await served.get('/api/v1/ppas/changes?since=yesterday&limit=1001&page=2');
    expect(answer.status).to.equal(400);
    const problems = jsonOf<{ invalid_params: { name: string; reason: string }[] }>(answer).invalid_params;
    expect(problems.map((problem) => problem.name).sort()).to.deep.equal(['limit', 'page', 'since']);
    expect(problems.find((problem) => problem.name === 'page')?.reason).to.equal(
      'is not a parameter of GET /api/v1/ppas/changes (the change log follows changes in order, from since)',
    );
    expect([served.calls.length, heads]).to.deep.equal([0, 0]);
  });
});
