// Past its capacity the API answers at capacity and refuses the rest at once (issue 43), and never refuses what it
// can answer within its target (issue 57): against a real
// Elasticsearch slowed down on purpose. A TCP proxy in front of it holds back the searches alone (a cluster whose
// search pool is full still answers a ping at once) and counts how many are in flight. No timing assertions: what
// is checked is the order of events (refusals before any admitted answer, a cached answer while the slots are
// full), what reached Elasticsearch, and Elasticsearch's own task list.
import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createRateLimiter } from '../../src/rateLimit/index.js';
import { RedisServer } from '../support/redisServer.js';
import { OVERLOADED_PROBLEM_TYPE } from '../../src/http/problem.js';
import { loadConfig } from '../../src/config.js';
import type { TestApp, TestAppOptions } from '../support/app.js';
import { slowedElasticsearch } from '../support/slowedElasticsearch.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';
import { within } from '../support/within.js';

interface Arrival {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  /** The order in which answers came back (0 first). */
  order: number;
}

/** Sends every path at once; each answer notes when it came, in order. */
async function allAtOnce(app: TestApp, paths: string[]): Promise<Arrival[]> {
  let next = 0;
  return Promise.all(
    paths.map(async (path) => {
      const response = await fetch(`${app.url}${path}`);
      const text = await response.text();
      return {
        status: response.status,
        body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
        retryAfter: response.headers.get('retry-after'),
        order: next++,
      };
    }),
  );
}

/**
 * Distinct uncached list searches (no cache could answer them), each finding something (`solar OR <label>`): an empty
 * answer would send a second search for its "did you mean".
 */
const uncached = (label: string, count: number) =>
  Array.from({ length: count }, (_, i) => `/api/v1/ppas?q=solar+OR+${label}${i}&per_page=${(i % 50) + 1}`);

interface Outcome {
  status: number;
  type: string | null;
  ms: number;
}

async function get(app: TestApp, path: string): Promise<Outcome> {
  const started = performance.now();
  const response = await fetch(`${app.url}${path}`);
  const text = await response.text();
  const type = response.status === 503 ? ((JSON.parse(text) as { type?: string }).type ?? null) : null;
  return { status: response.status, type, ms: performance.now() - started };
}

/** `clients` clients, each asking `rounds` distinct uncached searches one after the other (a closed loop). */
async function closedLoop(app: TestApp, label: string, clients: number, rounds: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let round = 0; round < rounds; round++)
        outcomes.push(await get(app, `/api/v1/ppas?q=solar+OR+${label}${client}x${round}`));
    }),
  );
  return outcomes;
}

const refusals = (outcomes: Outcome[]) => outcomes.filter((o) => o.type === OVERLOADED_PROBLEM_TYPE);

describe('api: overload, against a slowed Elasticsearch', function () {
  this.timeout(120_000);
  const slowed = slowedElasticsearch('api-overload');
  const proxy = () => slowed.proxy();
  const app = (options: Omit<TestAppOptions, 'alias'>) => slowed.app({ ...options });

  it('refuses the excess at once (503 overloaded, Retry-After, not run); Elasticsearch never sees more than the limit', async () => {
    const es = await proxy();
    const small = await app({
      esNodes: [es.url],
      requestTimeoutMs: 10_000,
      configOverrides: { admissionMaxInFlight: 2, admissionTargetMs: 20 },
    });
    es.searchDelayMs = 1500;
    // One search measured first: from its time, none of the others could answer within the target.
    expect((await fetch(`${small.url}/api/v1/ppas?q=solar+OR+first`)).status).to.equal(200);
    es.resetCounts();
    const answers = await allAtOnce(small, uncached('a', 12));
    const admitted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(admitted).to.have.length(2);
    expect(refused).to.have.length(10);
    for (const answer of refused) {
      expect(answer.status).to.equal(503);
      expect(answer.body).to.include({
        type: OVERLOADED_PROBLEM_TYPE,
        title: 'Service overloaded',
        status: 503,
      });
      expect(answer.body.detail).to.match(/not run/);
      expect(Number(answer.retryAfter)).to.be.a('number').and.at.least(1);
    }
    // At once: every refusal came back before the first admitted answer (which waited for the slow search).
    const firstAdmitted = Math.min(...admitted.map((answer) => answer.order));
    expect(Math.max(...refused.map((answer) => answer.order))).to.be.below(firstAdmitted);
    // The refused were never sent; those sent were never more than the limit at once.
    expect(es.searchesSent).to.equal(2);
    expect(es.maxSearchesInFlight).to.be.at.most(2);
    const state = small.admission.state();
    expect(state.refused).to.equal(10);
    // Refusals are counted, not logged one by one: no request line for them, and one summary line later.
    const refusedLines = small.logs.filter((line) => line.msg === 'request' && line.status === 503);
    expect(refusedLines).to.have.length(0);
  });

  it('answers a cached request and /health/live while the limit is full; readiness stays ready and says it sheds', async () => {
    const es = await proxy();
    const cached = await app({
      esNodes: [es.url],
      requestTimeoutMs: 10_000,
      configOverrides: {
        admissionMaxInFlight: 2,
        admissionTargetMs: 20,
        responseCacheBytes: 8 * 1024 * 1024,
      },
    });
    const popular = '/api/v1/ppas?q=wind';
    let firstBody = '';
    // Kept once the cache knows the generation it serves (it looks it up when it starts).
    await within(10_000, 'the popular answer in the response cache', async () => {
      const first = await fetch(`${cached.url}${popular}`);
      firstBody = await first.text();
      expect(first.status, firstBody).to.equal(200);
      return cached.responseCache!.stats().entries > 0;
    });

    es.searchDelayMs = 2000;
    // One slow search measured: from its time, a third search could not answer within the target.
    expect((await fetch(`${cached.url}/api/v1/ppas?q=solar+OR+measured`)).status).to.equal(200);
    es.resetCounts();
    const slow = allAtOnce(cached, uncached('b', 2));
    await within(10_000, 'both slots taken', async () => es.searchesInFlight === 2, 10);

    const again = await fetch(`${cached.url}${popular}`);
    expect(again.status).to.equal(200);
    expect(await again.text()).to.equal(firstBody);
    const live = await fetch(`${cached.url}/health/live`);
    expect(live.status).to.equal(200);
    const refused = await fetch(`${cached.url}/api/v1/ppas?q=hydro+OR+c`);
    expect(refused.status).to.equal(503);
    expect(((await refused.json()) as { type: string }).type).to.equal(OVERLOADED_PROBLEM_TYPE);
    const ready = await fetch(`${cached.url}/health/ready`);
    const readyBody = (await ready.json()) as { status: string; load: Record<string, unknown> };
    expect(ready.status).to.equal(200);
    expect(readyBody.status).to.equal('ready');
    expect(readyBody.load).to.include({ status: 'shedding', limit: 2, in_flight: 2 });
    // All of that while the two slow searches were still in Elasticsearch, and none of it reached it.
    expect(es.searchesInFlight).to.equal(2);
    expect(es.searchesSent).to.equal(2);
    expect((await slow).map((answer) => answer.status)).to.deep.equal([200, 200]);
  });

  it('a timeout under load does not take the node out of the pool, nor send the search to another node', async () => {
    const [a, b] = [await proxy(), await proxy()];
    const both = await app({ esNodes: [a.url, b.url], requestTimeoutMs: 1000 });
    a.searchDelayMs = b.searchDelayMs = 3000;
    a.resetCounts();
    b.resetCounts();
    const timedOut = await fetch(`${both.url}/api/v1/ppas?q=solar+OR+d`);
    expect(timedOut.status).to.equal(503);
    expect(((await timedOut.json()) as { type: string }).type).to.equal('about:blank'); // the outage 503
    // Tried once: the node answered a ping at once (busy, not gone), so no other node got the search.
    expect(a.searchesSent + b.searchesSent).to.equal(1);
    a.searchDelayMs = b.searchDelayMs = 0;
    a.resetCounts();
    b.resetCounts();
    for (let i = 0; i < 6; i++) {
      expect((await fetch(`${both.url}/api/v1/ppas?q=solar+OR+e${i}`)).status).to.equal(200);
    }
    // Both nodes still in the round robin.
    expect(a.searchesSent).to.be.at.least(1);
    expect(b.searchesSent).to.be.at.least(1);
  });

  it('serves a closed loop of more clients than the limit without a refusal while answers come within the target; past it, refuses and still answers the admitted in time', async () => {
    const es = await proxy();
    const targetMs = 1200;
    const limited = await app({
      esNodes: [es.url],
      requestTimeoutMs: 2 * targetMs,
      configOverrides: { admissionMaxInFlight: 2, admissionTargetMs: targetMs },
    });
    // 8 clients, 2 slots, 100 ms a search: the last in the queue has its answer after about 6 × 100 / 2 + 100 ms.
    es.searchDelayMs = 100;
    const served = await closedLoop(limited, 'a', 8, 6);
    expect(refusals(served)).to.have.length(0);
    expect(served.every((o) => o.status === 200)).to.equal(true);
    expect(es.maxSearchesInFlight).to.equal(2); // the others waited in the API's queue, not in Elasticsearch
    expect(limited.admission.state().refused).to.equal(0);

    // 400 ms a search: the sixth in the queue would answer after 6 × 400 / 2 + 400 = 1,600 ms, past the target.
    // (A new instance: its first search gives its estimate at once, where the other's average would take about
    // twenty searches to follow the change, admitting on the old figure meanwhile.)
    es.searchDelayMs = 400;
    const slower = await app({
      esNodes: [es.url],
      requestTimeoutMs: 2 * targetMs,
      configOverrides: { admissionMaxInFlight: 2, admissionTargetMs: targetMs },
    });
    expect((await get(slower, '/api/v1/ppas?q=solar+OR+first')).status).to.equal(200);
    // The deepest the queue got, sampled while the clients run: what admission let wait, not how long it took here.
    let mostQueued = 0;
    const sampler = setInterval(() => {
      mostQueued = Math.max(mostQueued, slower.admission.state().queued);
    }, 5);
    const crowded = await closedLoop(slower, 'b', 8, 4).finally(() => clearInterval(sampler));
    expect(refusals(crowded).length).to.be.above(0);
    const admitted = crowded.filter((o) => o.status === 200);
    expect(admitted.length).to.be.above(0);
    // The admitted were let wait only as deep as the target allows: 400 ms a search on 2 slots, the q-th in the
    // queue answers after (q / 2 + 1) × 400 ms, so 1,200 ms allows 4, give or take one search (the estimate's own
    // error); without admission the 8 clients queue 6 deep. None waited into the request timeout (no 503 above).
    expect(mostQueued, 'searches queued at once').to.be.at.most(4 + 1);
    expect(crowded.every((o) => o.status === 200 || o.type === OVERLOADED_PROBLEM_TYPE)).to.equal(true);
  });

  it('a refusal runs nothing: never reaches the rate limiter in Redis, never reads the parameters, never searches', async () => {
    const redis = await RedisServer.start();
    const watcher = new Redis(redis.url);
    let limiter: ReturnType<typeof createRateLimiter> | undefined;
    try {
      const es = await proxy();
      limiter = createRateLimiter({
        redisUrl: redis.url,
        points: 1000,
        windowSeconds: 60,
        logger: pino({ level: 'silent' }),
      });
      const limited = await app({
        esNodes: [es.url],
        limiter,
        requestTimeoutMs: 10_000,
        configOverrides: { admissionMaxInFlight: 1, admissionTargetMs: 500 },
      });
      // One search of 1.5 s measured: then, while a second one holds the slot, the next could not answer in time.
      es.searchDelayMs = 1500;
      expect((await get(limited, '/api/v1/ppas?q=solar+OR+c0')).status).to.equal(200);
      const holding = get(limited, '/api/v1/ppas?q=solar+OR+c1');
      await within(10_000, 'the slot taken', async () => es.searchesInFlight === 1, 10);
      es.resetCounts();
      const commands = async () => {
        const stats = await watcher.info('stats');
        return Number(/total_commands_processed:(\d+)/.exec(stats)![1]);
      };
      const before = await commands();
      // A valid search, and one whose parameters are wrong: both refused, so neither was read.
      const refused = [
        await get(limited, '/api/v1/ppas?q=wind+d'),
        await get(limited, '/api/v1/ppas?per_page=oops&q=wind'),
        await get(limited, '/API/V1/PPAS/statistics?q=hydro'),
      ];
      const after = await commands();
      expect(refused.map((o) => [o.status, o.type])).to.deep.equal([
        [503, OVERLOADED_PROBLEM_TYPE],
        [503, OVERLOADED_PROBLEM_TYPE],
        [503, OVERLOADED_PROBLEM_TYPE],
      ]);
      // Only the INFO of `before` ran in between (counted once the command is done).
      expect(after - before).to.equal(1);
      expect(es.searchesSent).to.equal(0);
      // Not a search: answered as usual, the rate limit counted.
      const openApi = await fetch(`${limited.url}/api/v1/openapi.json`);
      expect(openApi.status).to.equal(200);
      expect(openApi.headers.get('ratelimit-policy') ?? openApi.headers.get('ratelimit')).to.be.a('string');
      expect((await holding).status).to.equal(200);
    } finally {
      // (A limiter given to the app is the test's to close: its client would retry the stopped Redis forever.)
      await limiter?.close();
      watcher.disconnect();
      await redis.kill();
    }
  });

  it("the front door's refusal carries the headers of the app's own (problem, Retry-After, request id, CORS), no rate-limit header", async () => {
    const es = await proxy();
    const limited = await app({
      esNodes: [es.url],
      requestTimeoutMs: 10_000,
      configOverrides: { admissionMaxInFlight: 1, admissionTargetMs: 300 },
    });
    es.searchDelayMs = 1000;
    expect((await get(limited, '/api/v1/ppas?q=solar+OR+e0')).status).to.equal(200);
    const holding = get(limited, '/api/v1/ppas?q=solar+OR+e1');
    await within(10_000, 'the slot taken', async () => es.searchesInFlight === 1, 10);
    const response = await fetch(`${limited.url}/api/v1/ppas?q=wind+e`, {
      headers: { 'X-Request-Id': 'door-check-1', Origin: 'https://example.org' },
    });
    expect(response.status).to.equal(503);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).to.include({ type: OVERLOADED_PROBLEM_TYPE, title: 'Service overloaded', status: 503 });
    expect(body.detail).to.match(/not run/);
    const headers = Object.fromEntries(response.headers);
    expect(headers).to.include({
      'x-request-id': 'door-check-1',
      'retry-after': '2',
      'cache-control': 'no-store',
      'content-type': 'application/problem+json; charset=utf-8',
      'access-control-allow-origin': '*',
      'x-content-type-options': 'nosniff',
    });
    expect(headers['access-control-expose-headers']).to.include('Retry-After');
    expect(Object.keys(headers).filter((name) => name.startsWith('ratelimit'))).to.deep.equal([]);
    const head = await fetch(`${limited.url}/api/v1/ppas?q=wind+f`, { method: 'HEAD' });
    expect(head.status).to.equal(503);
    expect(await head.text()).to.equal('');
    await holding;
  });

  it('while the event loop is held busy, searches are refused at the door and /health/live still answers', async () => {
    const es = await proxy();
    // The bound users run (ADMISSION_LOOP_DELAY_MS's default), not the test apps' raised one.
    const busy = await app({
      esNodes: [es.url],
      requestTimeoutMs: 10_000,
      configOverrides: { admissionLoopDelayMs: loadConfig({}).admissionLoopDelayMs },
    });
    expect((await get(busy, '/api/v1/ppas?q=solar+OR+g0')).status).to.equal(200);
    es.resetCounts();
    // The test's hook: the loop works 80 ms of every 90 (a process starved by its own work).
    const spin = setInterval(() => {
      const until = performance.now() + 80;
      while (performance.now() < until);
    }, 10);
    try {
      await within(10_000, 'the door shedding', async () => {
        const outcome = await get(busy, '/api/v1/ppas?q=solar+OR+g1');
        return outcome.type === OVERLOADED_PROBLEM_TYPE;
      });
      const live = await fetch(`${busy.url}/health/live`);
      expect(live.status).to.equal(200);
      const searchesBefore = es.searchesSent;
      expect((await get(busy, '/api/v1/ppas?q=solar+OR+g2')).type).to.equal(OVERLOADED_PROBLEM_TYPE);
      expect(es.searchesSent).to.equal(searchesBefore);
    } finally {
      clearInterval(spin);
    }
    await within(10_000, 'searches answered again', async () => {
      return (await get(busy, '/api/v1/ppas?q=solar+OR+g3')).status === 200;
    });
  });

  describe('a client that goes away', () => {
    const heavy = uniqueName('api-overload-heavy');
    let heavyClient: Client;

    before(async () => {
      heavyClient = testEsClient();
      await heavyClient.indices.create({
        index: heavy,
        settings: { number_of_shards: 1, number_of_replicas: 0 },
        mappings: { properties: { k: { type: 'keyword' } } },
      });
      const operations = Array.from({ length: 20_000 }, (_, i) => [{ index: {} }, { k: `k${i}` }]).flat();
      await heavyClient.bulk({ index: heavy, operations, refresh: true });
    });
    after(async () => {
      await deleteIndices(heavyClient, heavy);
      await heavyClient?.close();
    });

    it('cancels its search in Elasticsearch too (marked cancelled in _tasks, then gone)', async () => {
      const direct = await app({});
      // Fill Elasticsearch's search pool with slow searches of another index (10,000 hits each, sorted and fetched:
      // about half a second each here, 20 of them queued), so that the API's search waits in Elasticsearch, where
      // _tasks shows it.
      const slow = Array.from({ length: 20 }, () =>
        heavyClient.search(
          { index: heavy, request_cache: false, size: 10_000, sort: [{ k: 'asc' }], track_total_hits: false },
          { requestTimeout: 120_000 },
        ),
      );
      const searchTasks = async () => {
        const answer = await heavyClient.tasks.list({ actions: 'indices:data/read/search', detailed: true });
        return Object.values(answer.nodes ?? {}).flatMap((node) => Object.values(node.tasks ?? {}));
      };
      await within(30_000, 'the slow searches running', async () => (await searchTasks()).length >= 4, 50);

      const leaving = new AbortController();
      const request = fetch(`${direct.url}/api/v1/ppas?q=solar+OR+f`, { signal: leaving.signal }).catch(
        (error: unknown) => error,
      );
      const ours = async () =>
        (await searchTasks()).filter((task) => task.description?.includes(slowed.alias));
      await within(30_000, "the API's search in _tasks", async () => (await ours()).length > 0, 20);
      leaving.abort();
      await request;
      // Cancelled at once, while the slow searches are still there (so not simply finished)…
      await within(
        10_000,
        "the API's search cancelled",
        async () => (await ours()).every((task) => task.cancelled),
        20,
      );
      const others = (await searchTasks()).filter((task) => !task.description?.includes(slowed.alias));
      expect(others.length).to.be.at.least(1);
      // …and gone once Elasticsearch reaches it.
      await within(60_000, "the API's search gone from _tasks", async () => (await ours()).length === 0, 100);
      await Promise.all(slow);
      await within(5_000, 'the request logged as abandoned (499)', async () =>
        direct.logs.some((line) => line.msg === 'request' && line.status === 499),
      );
    });
  });
});
