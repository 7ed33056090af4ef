// Elasticsearch going away and coming back, with the app in place: a TCP proxy sits between the app and the
// real cluster; closing it is "down", a proxy that accepts but never answers is "hanging", reopening it on the
// same port is "back". The API must answer 503 problem+json with Retry-After quickly, and recover by itself.
import { expect } from 'chai';
import { buildTestApp, type TestApp } from '../support/app.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { indexSample } from '../support/sampleIndex.js';
import { ES_URL, deleteIndices, testEsClient, uniqueName } from '../support/services.js';
import { boundedBy } from '../support/timing.js';
import { ES_VARIABLES_SPEC } from '../../settings/elasticsearch.js';
import { startTcpProxy, targetOf, type TcpProxy } from '../../tools/services/tcpProxy.js';

/** ES_REQUEST_TIMEOUT_MS's default, which the app under test keeps: what ends an unanswered search. */
const REQUEST_TIMEOUT_MS = Number(ES_VARIABLES_SPEC.ES_REQUEST_TIMEOUT_MS.default);

interface Timed {
  status: number;
  ms: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function timed(base: string, path: string): Promise<Timed> {
  const started = Date.now();
  const response = await fetch(`${base}${path}`);
  const text = await response.text();
  const ms = Date.now() - started;
  assertMatchesOpenApi(path, response.status, text ? JSON.parse(text) : undefined, {
    headers: response.headers,
    contentType: response.headers.get('content-type'),
  });
  return { status: response.status, ms, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

function expectUnavailable(answer: Timed, what: string): void {
  expect(answer.status, what).to.equal(503);
  // The request timeout ends every wait (a hang would last until the test's own timeout).
  expect(answer.ms, `${what} answered within the request timeout`).to.be.below(boundedBy(REQUEST_TIMEOUT_MS));
  expect(answer.headers.get('content-type'), what).to.match(/^application\/problem\+json/);
  expect(answer.headers.get('retry-after'), what).to.match(/^\d+$/);
  expect(answer.headers.get('access-control-allow-origin'), what).to.equal('*');
  if (what.startsWith('/api/v1')) expect(answer.headers.get('ratelimit'), what).to.match(/^"per-ip";/);
  expect(answer.body).to.include({ status: 503, title: 'Service Unavailable' });
  // Nothing about Elasticsearch, the proxy's port or the error classes reaches the client.
  const text = JSON.stringify(answer.body);
  expect(text, what).not.to.match(
    /ECONNREFUSED|ECONNRESET|127\.0\.0\.1|TimeoutError|ConnectionError|:\d{4,5}\b/,
  );
  // The readiness check names its checks; an API answer says nothing about what is behind it.
  if (what.startsWith('/api/v1')) expect(text, what).not.to.match(/elastic|timed out|unreachable/i);
}

describe('api http: Elasticsearch unreachable, hanging, and back', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-outage');
  let proxy: TcpProxy;
  let api: TestApp;
  let slug: string;
  const paths = () => [
    '/api/v1/ppas',
    '/api/v1/ppas?facets=technology,country', // the page and its facet counts: one _msearch
    '/api/v1/ppas/statistics',
    `/api/v1/ppas/${slug}`,
  ];

  before(async () => {
    await indexSample(client, alias);
    proxy = await startTcpProxy(targetOf(ES_URL));
    api = await buildTestApp({
      alias,
      // ES_REQUEST_TIMEOUT_MS stays at its default (2000 ms): the contract's 3 s must hold with it.
      esNodes: [proxy.url],
    });
    const list = await fetch(`${api.url}/api/v1/ppas?per_page=1`);
    expect(list.status).to.equal(200);
    slug = ((await list.json()) as { data: { slug: string }[] }).data[0]?.slug ?? '';
  });

  after(async () => {
    await api?.close();
    await proxy?.close();
    await deleteIndices(client, alias);
    await client.close();
  });

  async function expectHealthy(): Promise<void> {
    for (const path of paths()) {
      const answer = await timed(api.url, path);
      expect(answer.status, path).to.equal(200);
    }
    const ready = await timed(api.url, '/health/ready');
    expect(ready.status).to.equal(200);
  }

  it('serves through the proxy', async () => {
    await expectHealthy();
  });

  it('answers 503 with Retry-After within 3 s when Elasticsearch is unreachable; ready fails, live does not', async () => {
    await proxy.close();
    for (const path of paths()) expectUnavailable(await timed(api.url, path), path);
    const ready = await timed(api.url, '/health/ready');
    expectUnavailable(ready, '/health/ready');
    expect(ready.body.elasticsearch).to.deep.include({ status: 'down', cluster: false, alias: false });
    const live = await timed(api.url, '/health/live');
    expect(live.status).to.equal(200);
    const logged = api.logs.filter((line) => line.msg === 'Service Unavailable');
    expect(logged.length, 'each outage answer is logged').to.be.greaterThan(0);
  });

  it('recovers without a restart when Elasticsearch is back', async () => {
    await proxy.open();
    await expectHealthy();
  });

  it('answers 503 within 3 s when Elasticsearch accepts connections but never answers (timeout)', async () => {
    await proxy.close();
    proxy.mode = 'blackhole';
    await proxy.open();
    // All at once: each waits for its own timeout.
    const [ready, ...answers] = await Promise.all(
      ['/health/ready', ...paths()].map((path) => timed(api.url, path)),
    );
    paths().forEach((path, i) => {
      const answer = answers[i] as Timed;
      expectUnavailable(answer, path);
      expect(answer.ms, `${path} waited for the request timeout`).to.be.at.least(
        api.config.es.requestTimeoutMs - 100,
      );
    });
    if (!ready) throw new Error('no readiness answer');
    expectUnavailable(ready, '/health/ready');
    expect(ready.body.elasticsearch).to.deep.include({ detail: 'timed out' });
  });

  it('recovers from the hang without a restart', async () => {
    await proxy.close();
    proxy.mode = 'forward';
    await proxy.open();
    await expectHealthy();
  });
});
