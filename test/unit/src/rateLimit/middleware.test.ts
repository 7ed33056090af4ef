// The rate limit in the real app (createApp) over the in-memory limiter, through real HTTP on 127.0.0.1 (no
// external services: no path used here reaches Elasticsearch).
import { expect } from 'chai';
import Koa from 'koa';
import { pino } from 'pino';
import {
  applyProxyTrust,
  createRateLimiter,
  type ClientRateLimiter,
} from '../../../../src/rateLimit/index.js';
import {
  buildRateLimitedApp,
  COUNTED_PATH,
  FAILING_PATH,
  listen,
  type RunningApp,
} from '../../../support/rateLimitApp.js';

const silent = pino({ level: 'silent' });

async function startApp(points: number, hops = 0): Promise<{ app: RunningApp; limiter: ClientRateLimiter }> {
  const limiter = createRateLimiter({ points, windowSeconds: 60, logger: silent });
  return { app: await listen(buildRateLimitedApp(limiter, hops)), limiter };
}

describe('rate limit: middleware (in-memory limiter)', () => {
  const running: RunningApp[] = [];
  const start = async (points: number, hops = 0): Promise<RunningApp> => {
    const { app } = await startApp(points, hops);
    running.push(app);
    return app;
  };
  afterEach(async () => {
    await Promise.all(running.splice(0).map((app) => app.close()));
  });

  it('counts down on every answer and refuses with problem+json, Retry-After and every header', async () => {
    const app = await start(3);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${app.baseUrl}${COUNTED_PATH}`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('RateLimit-Policy')).to.equal('"per-ip";q=3;w=60');
      expect(response.headers.get('X-RateLimit-Limit')).to.equal('3');
      remaining.push(response.headers.get('X-RateLimit-Remaining') ?? '');
      expect(response.headers.get('RateLimit')).to.match(new RegExp(`^"per-ip";r=${2 - i};t=(60|59)$`));
    }
    expect(remaining).to.deep.equal(['2', '1', '0']);

    const refused = await fetch(`${app.baseUrl}${COUNTED_PATH}`);
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('Content-Type')).to.match(/^application\/problem\+json/);
    const body = (await refused.json()) as { status: number; title: string };
    expect(body).to.include({ status: 429, title: 'Too Many Requests' });
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(Number.isInteger(retryAfter)).to.equal(true);
    expect(refused.headers.get('RateLimit')).to.equal(`"per-ip";r=0;t=${retryAfter}`);
    expect(refused.headers.get('RateLimit-Policy')).to.equal('"per-ip";q=3;w=60');
    expect(refused.headers.get('X-RateLimit-Limit')).to.equal('3');
    expect(refused.headers.get('X-RateLimit-Remaining')).to.equal('0');
    const resetEpoch = Number(refused.headers.get('X-RateLimit-Reset'));
    expect(resetEpoch).to.be.within(Date.now() / 1000 + retryAfter - 1, Date.now() / 1000 + retryAfter + 2);
  });

  it('sets the headers when downstream throws, and on 304s (which count)', async () => {
    const app = await start(6);
    const etag = (await fetch(`${app.baseUrl}${COUNTED_PATH}`)).headers.get('ETag')!;
    const failed = await fetch(`${app.baseUrl}${FAILING_PATH}`);
    expect(failed.status).to.equal(404);
    expect(failed.headers.get('X-RateLimit-Remaining')).to.equal('4');
    expect(failed.headers.get('RateLimit')).to.match(/^"per-ip";r=4;t=\d+$/);

    // fetch adds `Cache-Control: no-cache` to conditional requests (which defeats 304) unless one is given.
    const notModified = await fetch(`${app.baseUrl}${COUNTED_PATH}`, {
      headers: { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' },
    });
    expect(notModified.status).to.equal(304);
    expect(notModified.headers.get('X-RateLimit-Remaining')).to.equal('3');
    expect(notModified.headers.get('RateLimit-Policy')).to.equal('"per-ip";q=6;w=60');
  });

  it('neither counts nor refuses an OPTIONS request: CORS answers it before the limiter', async () => {
    const app = await start(1);
    expect((await fetch(`${app.baseUrl}${COUNTED_PATH}`)).status).to.equal(200);
    const preflight = await fetch(`${app.baseUrl}${COUNTED_PATH}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).not.to.equal(429);
    expect(preflight.headers.get('X-RateLimit-Remaining')).to.equal(null);

    const app2 = await start(1);
    const preflights = await Promise.all(
      Array.from({ length: 5 }, () =>
        fetch(`${app2.baseUrl}${COUNTED_PATH}`, {
          method: 'OPTIONS',
          headers: { 'Access-Control-Request-Method': 'GET' },
        }),
      ),
    );
    expect(preflights.map((response) => response.status)).not.to.include(429);
    const plain = await fetch(`${app2.baseUrl}${COUNTED_PATH}`, { method: 'OPTIONS' });
    expect(plain.status).to.equal(204);
    expect(plain.headers.get('X-RateLimit-Remaining')).to.equal(null);
    // The one point is still there for a GET.
    expect((await fetch(`${app2.baseUrl}${COUNTED_PATH}`)).status).to.equal(200);
    expect((await fetch(`${app2.baseUrl}${COUNTED_PATH}`)).status).to.equal(429);
  });

  it('counts only under the path prefix', async () => {
    const app = await start(1);
    for (let i = 0; i < 3; i += 1) {
      const health = await fetch(`${app.baseUrl}/health/live`);
      expect(health.status).to.equal(200);
      expect(health.headers.get('X-RateLimit-Remaining')).to.equal(null);
    }
    expect((await fetch(`${app.baseUrl}${COUNTED_PATH}`)).status).to.equal(200);
  });

  it('with 0 proxy hops ignores X-Forwarded-For: a client rotating it is still limited', async () => {
    const app = await start(2);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${app.baseUrl}${COUNTED_PATH}`, {
        headers: { 'X-Forwarded-For': `198.51.100.${i + 1}` },
      });
      statuses.push(response.status);
    }
    expect(statuses).to.deep.equal([200, 200, 429, 429]);
  });

  it('with 1 proxy hop keys on the right-most X-Forwarded-For entry; a forged left part changes nothing', async () => {
    const app = await start(2, 1);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${app.baseUrl}${COUNTED_PATH}`, {
        headers: { 'X-Forwarded-For': `10.0.0.${i + 1}, 198.51.100.9` },
      });
      statuses.push(response.status);
    }
    expect(statuses).to.deep.equal([200, 200, 429, 429]);
    const otherClient = await fetch(`${app.baseUrl}${COUNTED_PATH}`, {
      headers: { 'X-Forwarded-For': '198.51.100.9, 198.51.100.10' },
    });
    expect(otherClient.status).to.equal(200);
  });

  it('applyProxyTrust sets Koa proxy trust and refuses a bad hop count', () => {
    const app = new Koa();
    applyProxyTrust(app, 2);
    expect(app.proxy).to.equal(true);
    expect(app.maxIpsCount).to.equal(2);
    applyProxyTrust(app, 0);
    expect(app.proxy).to.equal(false);
    expect(() => applyProxyTrust(app, -1)).to.throw(RangeError);
    expect(() => applyProxyTrust(app, 1.5)).to.throw(RangeError);
  });
});
