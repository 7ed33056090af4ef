// The app shell over HTTP on a real Elasticsearch holding the sample data: headers on every answer, request ids,
// caching and 304s, HEAD, 405/404/500 as problem+json, CORS preflight, health, and the OpenAPI shapes.
import { INDEX_CONTRACT_VERSION, RELEASE } from '../../indexContract/contract.js';
import { expect } from 'chai';
import { connect } from 'node:net';
import { createRateLimiter } from '../../src/rateLimit/index.js';
import type { SearchGateway } from '../../src/gateway/gateway.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { assertMatchesOpenApi } from '../support/openapi.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

async function call(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const body = text && /json/.test(type) ? (JSON.parse(text) as unknown) : undefined;
  return { status: response.status, headers: response.headers, text, body };
}

/** Calls, then checks the answer against the OpenAPI document (body and documented headers). */
async function checked(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const answer = await call(base, path, init);
  assertMatchesOpenApi(path, answer.status, answer.body, {
    method: init.method ?? 'GET',
    headers: answer.headers,
    contentType: answer.headers.get('content-type'),
  });
  return answer;
}

function expectProblem(answer: Answer, status: number): Record<string, unknown> {
  expect(answer.status).to.equal(status);
  expect(answer.headers.get('content-type')).to.match(/^application\/problem\+json/);
  const body = answer.body as Record<string, unknown>;
  expect(body).to.include({ status });
  expect(body.type).to.be.a('string');
  expect(body.title).to.be.a('string');
  expect(body.detail).to.be.a('string');
  expect(answer.headers.get('cache-control')).to.equal('no-store');
  expect(answer.headers.get('etag')).to.equal(null);
  return body;
}

function expectCommonHeaders(answer: Answer): void {
  expect(answer.headers.get('access-control-allow-origin')).to.equal('*');
  expect(answer.headers.get('x-content-type-options')).to.equal('nosniff');
  expect(answer.headers.get('x-request-id')).to.match(/^[A-Za-z0-9._-]{1,128}$/);
  const exposed = (answer.headers.get('access-control-expose-headers') ?? '')
    .split(/,\s*/)
    .map((h) => h.toLowerCase());
  for (const name of [
    'ratelimit-policy',
    'ratelimit',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
    'link',
    'etag',
    'retry-after',
    'x-request-id',
  ]) {
    expect(exposed, `exposes ${name}`).to.include(name);
  }
}

function expectRateLimitHeaders(answer: Answer, limit: number): void {
  expect(answer.headers.get('ratelimit-policy')).to.equal(`"per-ip";q=${limit};w=60`);
  expect(answer.headers.get('ratelimit')).to.match(/^"per-ip";r=\d+;t=\d+$/);
  expect(answer.headers.get('x-ratelimit-limit')).to.equal(String(limit));
  expect(answer.headers.get('x-ratelimit-remaining')).to.match(/^\d+$/);
  expect(answer.headers.get('x-ratelimit-reset')).to.match(/^\d{10}$/);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('api http: the app shell on a real Elasticsearch', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-http');
  let api: TestApp;
  let slug: string;

  before(async () => {
    await indexSample(client, alias);
    api = await buildTestApp({ alias });
    const first = await call(api.url, '/api/v1/ppas?per_page=1');
    slug = (first.body as { data: { slug: string }[] }).data[0]?.slug ?? '';
    expect(slug).to.match(/^[a-z0-9-]+$/);
  });

  after(async () => {
    await api?.close();
    await deleteIndices(client, alias);
    await client.close();
  });

  describe('headers on every answer', () => {
    it('sends CORS, nosniff and a request id on successes, errors, with and without Origin', async () => {
      const answers = [
        await checked(api.url, '/api/v1/ppas'),
        await checked(api.url, '/api/v1/ppas', { headers: { Origin: 'https://elsewhere.example' } }),
        await checked(api.url, `/api/v1/ppas/${slug}`),
        await checked(api.url, '/api/v1/ppas/statistics'),
        await checked(api.url, '/api/v1/ppas?page=0', { headers: { Origin: 'https://elsewhere.example' } }),
        await checked(api.url, '/api/v1/ppas/no-such-ppa-anywhere'),
        await checked(api.url, '/api/v1/ppas', { method: 'DELETE' }),
        await call(api.url, '/nowhere'),
        await checked(api.url, '/health/live'),
        await checked(api.url, '/health/ready'),
      ];
      for (const answer of answers) expectCommonHeaders(answer);
    });

    it('sends the rate-limit headers on every /api/v1 answer (200, 304, 400, 404, 405), not on /health', async () => {
      const ok = await call(api.url, '/api/v1/ppas');
      const notModified = await call(api.url, '/api/v1/ppas', {
        headers: { 'If-None-Match': ok.headers.get('etag') ?? '' },
      });
      const answers = [
        ok,
        notModified,
        await call(api.url, '/api/v1/ppas?per_page=0'),
        await call(api.url, '/api/v1/ppas/nope-nope'),
        await call(api.url, '/api/v1/unknown'),
        await call(api.url, '/api/v1/ppas', { method: 'POST' }),
      ];
      expect(answers.map((answer) => answer.status)).to.deep.equal([200, 304, 400, 404, 404, 405]);
      for (const answer of answers) expectRateLimitHeaders(answer, api.config.rateLimitPoints);
      const health = await call(api.url, '/health/live');
      expect(health.headers.get('ratelimit')).to.equal(null);
      expect(health.headers.get('x-ratelimit-limit')).to.equal(null);
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a well-formed client id and writes it in the request log line', async () => {
      const id = 'client-Req_1.2';
      const answer = await call(api.url, '/api/v1/ppas?per_page=2', { headers: { 'X-Request-Id': id } });
      expect(answer.headers.get('x-request-id')).to.equal(id);
      const line = api.logs.find((entry) => entry.request_id === id && entry.msg === 'request');
      expect(line, 'a request log line with the id').to.not.equal(undefined);
      expect(line).to.include({ method: 'GET', path: '/api/v1/ppas', status: 200 });
      expect(line?.ms).to.be.a('number');
      expect(line?.ip).to.be.a('string').and.not.equal('');
    });

    it('replaces a malformed or too long id with a new UUID', async () => {
      for (const sent of ['has space', 'semi;colon', 'x'.repeat(129), 'per%cent', '{json}', 'a/b']) {
        const answer = await call(api.url, '/health/live', { headers: { 'X-Request-Id': sent } });
        const id = answer.headers.get('x-request-id') ?? '';
        expect(id, sent).to.match(UUID);
      }
      const none = await call(api.url, '/health/live');
      expect(none.headers.get('x-request-id')).to.match(UUID);
      const accepted128 = await call(api.url, '/health/live', {
        headers: { 'X-Request-Id': 'y'.repeat(128) },
      });
      expect(accepted128.headers.get('x-request-id')).to.equal('y'.repeat(128));
    });
  });

  describe('caching', () => {
    for (const path of [
      '/api/v1/ppas?per_page=3',
      '/api/v1/ppas/statistics',
      '/api/v1/openapi.json',
      'DETAIL',
    ]) {
      it(`${path === 'DETAIL' ? '/api/v1/ppas/{slug}' : path}: ETag and Cache-Control on 200, 304 on a matching If-None-Match`, async () => {
        const target = path === 'DETAIL' ? `/api/v1/ppas/${slug}` : path;
        const first = await checked(api.url, target);
        expect(first.status).to.equal(200);
        expect(first.headers.get('cache-control')).to.equal(
          `public, max-age=${api.config.cacheMaxAgeSeconds}`,
        );
        const etag = first.headers.get('etag') ?? '';
        expect(etag).to.match(/^"[^"]+"$/);
        const again = await call(api.url, target);
        expect(again.headers.get('etag'), 'same body, same tag').to.equal(etag);

        const notModified = await checked(api.url, target, { headers: { 'If-None-Match': etag } });
        expect(notModified.status).to.equal(304);
        expect(notModified.text).to.equal('');
        expect(notModified.headers.get('etag')).to.equal(etag);
        expect(notModified.headers.get('cache-control')).to.equal(first.headers.get('cache-control'));
        expectRateLimitHeaders(notModified, api.config.rateLimitPoints);
        expectCommonHeaders(notModified);

        const weakAndListed = await call(api.url, target, {
          headers: { 'If-None-Match': `"other", W/${etag}` },
        });
        expect(weakAndListed.status).to.equal(304);
        const stale = await call(api.url, target, { headers: { 'If-None-Match': '"stale"' } });
        expect(stale.status).to.equal(200);
        expect(stale.text).to.equal(first.text);
      });
    }

    it('gives different tags to different bodies', async () => {
      const a = await call(api.url, '/api/v1/ppas?per_page=1');
      const b = await call(api.url, '/api/v1/ppas?per_page=2');
      expect(a.headers.get('etag')).not.to.equal(b.headers.get('etag'));
    });

    it('uses CACHE_MAX_AGE_S', async () => {
      const other = await buildTestApp({ alias, configOverrides: { cacheMaxAgeSeconds: 5 } });
      try {
        const answer = await call(other.url, '/api/v1/ppas/statistics');
        expect(answer.headers.get('cache-control')).to.equal('public, max-age=5');
      } finally {
        await other.close();
      }
    });
  });

  describe('HEAD', () => {
    // Per-request values, and connection handling (the client closes after a HEAD).
    const VARYING = new Set([
      // Framing: a compressed GET is chunked, its HEAD gives the encoded length instead.
      'content-length',
      'transfer-encoding',
      'date',
      'x-request-id',
      'ratelimit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'connection',
      'keep-alive',
    ]);
    const stable = (headers: Headers) =>
      Object.fromEntries([...headers.entries()].filter(([name]) => !VARYING.has(name)));

    for (const path of [
      '/api/v1/ppas?per_page=2',
      '/api/v1/ppas/statistics',
      'DETAIL',
      '/api/v1/openapi.json',
      '/health/live',
      '/api/v1/ppas?page=0',
      '/api/v1/ppas/not-there-at-all',
      '/nowhere',
    ]) {
      it(`HEAD ${path === 'DETAIL' ? '/api/v1/ppas/{slug}' : path}: the GET's status and headers, no body`, async () => {
        const target = path === 'DETAIL' ? `/api/v1/ppas/${slug}` : path;
        const get = await call(api.url, target);
        const head = await call(api.url, target, { method: 'HEAD' });
        expect(head.status).to.equal(get.status);
        expect(head.text).to.equal('');
        expect(stable(head.headers)).to.deep.equal(stable(get.headers));
        if (target !== '/nowhere') {
          assertMatchesOpenApi(target, head.status, undefined, { method: 'HEAD', headers: head.headers });
        }
      });
    }
  });

  describe('methods and paths', () => {
    const known = [
      '/api/v1/ppas',
      '/api/v1/ppas/statistics',
      'DETAIL',
      '/api/v1/openapi.json',
      '/health/live',
      '/health/ready',
    ];
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      it(`${method} on every known path: 405, Allow: GET, HEAD, OPTIONS, problem+json`, async () => {
        for (const path of known) {
          const target = path === 'DETAIL' ? `/api/v1/ppas/${slug}` : path;
          const answer = await checked(api.url, target, {
            method,
            body: method === 'DELETE' ? undefined : '{}',
          });
          expectProblem(answer, 405);
          expect(answer.headers.get('allow'), target).to.equal('GET, HEAD, OPTIONS');
          expectCommonHeaders(answer);
        }
      });
    }

    it('unknown paths are 404 problem+json, whatever the method', async () => {
      for (const [method, path] of [
        ['GET', '/explore'], // GET / is the explorer page
        ['GET', '/api'],
        ['GET', '/api/v1'],
        ['GET', '/api/v1/unknown'],
        ['GET', '/api/v1/ppas/some-slug/extra'],
        ['GET', '/health'],
        ['POST', '/nowhere'],
        ['DELETE', '/api/v2/ppas'],
      ] as const) {
        const answer = await call(api.url, path, { method });
        const body = expectProblem(answer, 404);
        expect(body.instance, `${method} ${path}`).to.equal(path);
        expectCommonHeaders(answer);
      }
    });
  });

  describe('unexpected failures', () => {
    it('answers 500 problem+json with no stack, message or internal detail, and logs the error', async () => {
      const secret = 'boom: secret internal detail at /srv/app/src/thing.ts:12:3';
      const failing = await buildTestApp({
        alias,
        wrapSearch: (gateway): SearchGateway => ({
          ...gateway,
          search: () => Promise.reject(new TypeError(secret)),
          getDocument: () => Promise.reject(new TypeError(secret)),
        }),
      });
      try {
        for (const path of ['/api/v1/ppas', '/api/v1/ppas/statistics', `/api/v1/ppas/${slug}`]) {
          const answer = await checked(failing.url, path);
          const body = expectProblem(answer, 500);
          expect(Object.keys(body).sort()).to.deep.equal(['detail', 'instance', 'status', 'title', 'type']);
          expect(answer.text).not.to.match(/secret|boom|srv|TypeError|stack|\.ts:/);
          expectCommonHeaders(answer);
          expectRateLimitHeaders(answer, failing.config.rateLimitPoints);
        }
        const logged = failing.logs.find((line) => line.msg === 'unexpected error');
        expect(JSON.stringify(logged)).to.include('secret internal detail');
      } finally {
        await failing.close();
      }
    });
  });

  describe('CORS preflight and the rate limit', () => {
    it('answers OPTIONS 204 with the allowed methods, never counted and never refused', async () => {
      const limiter = createRateLimiter({
        points: 2,
        windowSeconds: 60,
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      });
      const limited = await buildTestApp({ alias, limiter, configOverrides: { rateLimitPoints: 2 } });
      try {
        for (let i = 0; i < 5; i++) {
          const preflight = await call(limited.url, '/api/v1/ppas?q=solar', {
            method: 'OPTIONS',
            headers: {
              Origin: 'https://app.example',
              'Access-Control-Request-Method': 'GET',
              'Access-Control-Request-Headers': 'if-none-match, x-request-id',
            },
          });
          expect(preflight.status).to.equal(204);
          expect(preflight.text).to.equal('');
          expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
          expect(preflight.headers.get('access-control-allow-methods')).to.equal('GET, HEAD, OPTIONS');
          expect(preflight.headers.get('access-control-allow-headers')).to.equal(
            'if-none-match, x-request-id',
          );
          expect(preflight.headers.get('access-control-max-age')).to.match(/^\d+$/);
          expect(preflight.headers.get('ratelimit')).to.equal(null);
        }
        const plainOptions = await call(limited.url, '/api/v1/ppas', { method: 'OPTIONS' });
        expect(plainOptions.status).to.equal(204);
        expect(plainOptions.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');

        const first = await checked(limited.url, '/api/v1/ppas/statistics');
        expect(first.status).to.equal(200);
        expect(first.headers.get('x-ratelimit-remaining')).to.equal('1');
        await call(limited.url, '/api/v1/ppas/statistics');
        const refused = await checked(limited.url, '/api/v1/ppas/statistics');
        expectProblem(refused, 429);
        expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
        expectRateLimitHeaders(refused, 2);
        expectCommonHeaders(refused);

        // The routers ignore case and a trailing slash; the limit does too, so neither sidesteps it.
        for (const path of ['/API/V1/PPAS', '/Api/v1/ppas/statistics/', '/api/v1/']) {
          expect((await call(limited.url, path)).status, path).to.equal(429);
        }

        // Health is outside the limit even for a client that has used its quota.
        const live = await checked(limited.url, '/health/live');
        const ready = await checked(limited.url, '/health/ready');
        expect([live.status, ready.status]).to.deep.equal([200, 200]);
        const preflightAfter = await call(limited.url, '/api/v1/ppas', {
          method: 'OPTIONS',
          headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
        });
        expect(preflightAfter.status).to.equal(204);
      } finally {
        await limited.close();
        await limiter.close();
      }
    });
  });

  describe("links on the request's own origin (no PUBLIC_BASE_URL)", () => {
    /** A raw HTTP exchange, so the request line and the Host header are exactly what a client may send. */
    async function raw(request: string): Promise<{ head: string; body: Record<string, unknown> }> {
      const { port } = new URL(api.url);
      const socket = connect(Number(port), '127.0.0.1');
      // Not end(): the server would take the half-close for an aborted request. Connection: close ends it.
      socket.write(request);
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      return { head, body: JSON.parse(body) as Record<string, unknown> };
    }

    it('uses the Host header the client sent', async () => {
      const answer = await call(api.url, '/api/v1/ppas?per_page=1');
      const links = (answer.body as { links: Record<string, string> }).links;
      expect(links.self).to.equal(`${api.url}/api/v1/ppas?per_page=1&page=1`);
    });

    for (const [label, hostLine] of [
      ['no Host header (HTTP/1.0)', ''],
      ['a Host that is no host name', 'Host: a b\r\n'],
      ['a Host carrying a path, query and fragment', 'Host: evil.example/x?y#\r\n'],
    ] as const) {
      it(`stays absolute with ${label}: the address the client connected to`, async () => {
        const { head, body } = await raw(
          `GET /api/v1/ppas?per_page=1 HTTP/1.0\r\n${hostLine}Connection: close\r\n\r\n`,
        );
        expect(head).to.match(/^HTTP\/1\.1 200 /);
        const links = body.links as Record<string, string>;
        const item = (body.data as { url: string }[])[0];
        const origin = new URL(api.url).origin;
        expect(links.self).to.equal(`${origin}/api/v1/ppas?per_page=1&page=1`);
        expect(item?.url).to.match(new RegExp(`^${origin}/api/v1/ppas/[a-z0-9-]+$`));
        for (const link of Object.values(links).filter((value) => value !== null)) {
          expect(new URL(link).origin, link).to.equal(origin);
        }
      });
    }
  });

  describe('health', () => {
    it('/health/live is 200 while the process runs', async () => {
      const answer = await checked(api.url, '/health/live');
      expect(answer.status).to.equal(200);
      expect(answer.body).to.deep.equal({ status: 'ok' });
      expect(answer.headers.get('cache-control')).to.equal('no-store');
    });

    it('/health/ready is 200 with the Elasticsearch and rate-limit checks when the alias exists', async () => {
      const answer = await checked(api.url, '/health/ready');
      expect(answer.status).to.equal(200);
      expect(answer.body).to.deep.equal({
        status: 'ready',
        elasticsearch: { status: 'ok', cluster: true, alias: true, detail: null },
        rate_limit: { status: 'ok', store: 'memory', detail: null },
        zero_results: {
          status: 'ok',
          store: 'memory',
          detail: 'REDIS_URL is not set: this instance counts its own',
        },
        // Built from a file: no sync mark; the reindex started an empty change log.
        sync: { status: 'ok', high_water_mark: null, changes_head: 0, detail: null },
        // Nothing refused: not shedding; the limit as admission control has it now.
        load: {
          status: 'ok',
          limit: api.admission.state().limit,
          in_flight: 0,
          queued: 0,
          refused_total: 0,
          detail: null,
        },
        // Built by this release's indexer: the contract it serves, nothing missing.
        index: {
          status: 'ok',
          contract_version: INDEX_CONTRACT_VERSION,
          release: RELEASE,
          api_contract_version: INDEX_CONTRACT_VERSION,
          missing_fields: [],
          detail: null,
        },
      });
    });

    it('/health/ready is 503 problem+json when the alias is missing, and the API answers 503 too', async () => {
      const missing = await buildTestApp({ alias: uniqueName('api-http-missing') });
      try {
        const ready = await checked(missing.url, '/health/ready');
        const body = expectProblem(ready, 503);
        expect(ready.headers.get('retry-after')).to.match(/^\d+$/);
        expect(body.elasticsearch).to.deep.include({ status: 'down', cluster: true, alias: false });
        expect(body.rate_limit).to.deep.include({ status: 'ok' });
        const live = await checked(missing.url, '/health/live');
        expect(live.status).to.equal(200);
        const list = await checked(missing.url, '/api/v1/ppas');
        expectProblem(list, 503);
        expect(list.headers.get('retry-after')).to.match(/^\d+$/);
      } finally {
        await missing.close();
      }
    });
  });
});
