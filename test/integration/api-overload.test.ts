// Past its capacity the API answers at capacity and refuses the rest at once (issue 43): against a real
// Elasticsearch slowed down on purpose. A TCP proxy in front of it holds back the searches alone (a cluster whose
// search pool is full still answers a ping at once) and counts how many are in flight. No timing assertions: what
// is checked is the order of events (refusals before any admitted answer, a cached answer while the slots are
// full), what reached Elasticsearch, and Elasticsearch's own task list.
import { expect } from 'chai';
import type { Client } from '@elastic/elasticsearch';
import { OVERLOADED_PROBLEM_TYPE } from '../../src/http/problem.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, ES_URL, testEsClient, uniqueName } from '../support/services.js';
import { startTcpProxy, targetOf, type TcpProxy } from '../support/tcpProxy.js';
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

/** Distinct uncached list searches (no cache could answer them). */
const uncached = (label: string, count: number) =>
  Array.from({ length: count }, (_, i) => `/api/v1/ppas?q=solar+${label}${i}&per_page=${(i % 50) + 1}`);

describe('api: overload, against a slowed Elasticsearch', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-overload');
  const proxies: TcpProxy[] = [];
  const apps: TestApp[] = [];

  const proxy = async () => {
    const started = await startTcpProxy(targetOf(ES_URL));
    proxies.push(started);
    return started;
  };
  const app = async (options: Parameters<typeof buildTestApp>[0]) => {
    const built = await buildTestApp(options);
    apps.push(built);
    return built;
  };

  before(async () => {
    await indexSample(client, alias);
  });
  after(async () => {
    await Promise.all(apps.map((built) => built.close()));
    await Promise.all(proxies.map((started) => started.close()));
    await deleteIndices(client, alias);
    await client.close();
  });

  it('refuses the excess at once (503 overloaded, Retry-After, not run); Elasticsearch never sees more than the limit', async () => {
    const es = await proxy();
    const small = await app({
      alias,
      esNodes: [es.url],
      requestTimeoutMs: 10_000,
      configOverrides: { admissionMaxInFlight: 2, admissionMaxWaitMs: 20 },
    });
    es.searchDelayMs = 1500;
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
      alias,
      esNodes: [es.url],
      requestTimeoutMs: 10_000,
      configOverrides: {
        admissionMaxInFlight: 2,
        admissionMaxWaitMs: 20,
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
    es.resetCounts();
    const slow = allAtOnce(cached, uncached('b', 2));
    await within(10_000, 'both slots taken', async () => es.searchesInFlight === 2, 10);

    const again = await fetch(`${cached.url}${popular}`);
    expect(again.status).to.equal(200);
    expect(await again.text()).to.equal(firstBody);
    const live = await fetch(`${cached.url}/health/live`);
    expect(live.status).to.equal(200);
    const refused = await fetch(`${cached.url}/api/v1/ppas?q=hydro+c`);
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
    const both = await app({ alias, esNodes: [a.url, b.url], requestTimeoutMs: 1000 });
    a.searchDelayMs = b.searchDelayMs = 3000;
    const timedOut = await fetch(`${both.url}/api/v1/ppas?q=solar+d`);
    expect(timedOut.status).to.equal(503);
    expect(((await timedOut.json()) as { type: string }).type).to.equal('about:blank'); // the outage 503
    // Tried once: the node answered a ping at once (busy, not gone), so no other node got the search.
    expect(a.searchesSent + b.searchesSent).to.equal(1);
    a.searchDelayMs = b.searchDelayMs = 0;
    a.resetCounts();
    b.resetCounts();
    for (let i = 0; i < 6; i++) {
      expect((await fetch(`${both.url}/api/v1/ppas?q=solar+e${i}`)).status).to.equal(200);
    }
    // Both nodes still in the round robin.
    expect(a.searchesSent).to.be.at.least(1);
    expect(b.searchesSent).to.be.at.least(1);
  });

  describe('a client that goes away', () => {
    const heavy = uniqueName('api-overload-heavy');
    let heavyClient: Client;

    before(async () => {
      heavyClient = testEsClient();
      await client.indices.create({
        index: heavy,
        settings: { number_of_shards: 1, number_of_replicas: 0 },
        mappings: { properties: { k: { type: 'keyword' } } },
      });
      const operations = Array.from({ length: 20_000 }, (_, i) => [{ index: {} }, { k: `k${i}` }]).flat();
      await client.bulk({ index: heavy, operations, refresh: true });
    });
    after(async () => {
      await heavyClient?.close();
      await deleteIndices(client, heavy);
    });

    it('cancels its search in Elasticsearch too (marked cancelled in _tasks, then gone)', async () => {
      const direct = await app({ alias });
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
        const answer = await client.tasks.list({ actions: 'indices:data/read/search', detailed: true });
        return Object.values(answer.nodes ?? {}).flatMap((node) => Object.values(node.tasks ?? {}));
      };
      await within(30_000, 'the slow searches running', async () => (await searchTasks()).length >= 4, 50);

      const leaving = new AbortController();
      const request = fetch(`${direct.url}/api/v1/ppas?q=solar+f`, { signal: leaving.signal }).catch(
        (error: unknown) => error,
      );
      const ours = async () => (await searchTasks()).filter((task) => task.description?.includes(alias));
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
      const others = (await searchTasks()).filter((task) => !task.description?.includes(alias));
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
