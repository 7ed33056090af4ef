// The rate limit inside the real app (createApp, as src/server.ts wires it): two instances sharing Redis.
import { expect } from 'chai';
import { pino } from 'pino';
import { createRateLimiter, type ClientRateLimiter } from '../../src/rateLimit/index.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { requestAs, waitForHealth, type TimedAnswer } from '../support/rateLimitClients.js';
import { RedisServer } from '../support/redisServer.js';
import { uniqueName } from '../support/services.js';
import { boundedBy, SHARED_MACHINE_SLACK_MS } from '../support/timing.js';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../src/rateLimit/redisRateLimiter.js';

// /api/v1/openapi.json counts like every /api/v1 operation but needs no index, so only the limit decides.
const COUNTED_PATH = '/api/v1/openapi.json';

describe('rate limit: in the real app, two instances sharing Redis', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let limiters: ClientRateLimiter[];
  let apps: TestApp[];

  /**
   * Two createApp instances with one trusted proxy hop, each with its own limiter on the same Redis keys. Unless a
   * test is about a Redis that fails, a slow answer on a loaded machine must not count as one: a command timeout of
   * the shared machine's slack keeps a request that waited on a busy Redis from being counted in memory instead
   * (a loaded run let 62 of 100 through so).
   */
  async function startTwoApps(
    points: number,
    commandTimeoutMs = SHARED_MACHINE_SLACK_MS,
  ): Promise<[TestApp, TestApp]> {
    const keyPrefix = uniqueName('rate-limit-app');
    limiters = [0, 1].map(() =>
      createRateLimiter({
        redisUrl: redis.url,
        points,
        windowSeconds: 60,
        keyPrefix,
        logger: pino({ level: 'silent' }),
        commandTimeoutMs,
      }),
    );
    apps = await Promise.all(
      limiters.map((limiter) =>
        buildTestApp({
          alias: uniqueName('rate-limit-no-index'),
          limiter,
          configOverrides: { rateLimitPoints: points, trustProxyHops: 1, logLevel: 'silent' },
        }),
      ),
    );
    await Promise.all(limiters.map((limiter) => waitForHealth(limiter, 'ok')));
    return [apps[0]!, apps[1]!];
  }

  beforeEach(async () => {
    redis = await RedisServer.start();
    limiters = [];
    apps = [];
  });

  afterEach(async () => {
    for (const app of apps) await app.close();
    for (const limiter of limiters) await limiter.close();
    await redis.kill();
  });

  it('lets exactly 60 of 100 concurrent requests through, refusing the rest with problem+json', async () => {
    const [a, b] = await startTwoApps(60);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        requestAs((i % 2 === 0 ? a : b).url, '203.0.113.90', COUNTED_PATH),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).to.have.length(60);
    expect(answers.filter((answer) => answer.status === 429)).to.have.length(40);

    const refused = await fetch(`${b.url}${COUNTED_PATH}`, {
      headers: { 'X-Forwarded-For': '203.0.113.90' },
    });
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('Content-Type')).to.match(/^application\/problem\+json/);
    expect(await refused.json()).to.include({ status: 429, title: 'Too Many Requests' });
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).to.be.within(1, 60);
    expect(refused.headers.get('RateLimit')).to.equal(`"per-ip";r=0;t=${retryAfter}`);
    expect(refused.headers.get('RateLimit-Policy')).to.equal('"per-ip";q=60;w=60');
    expect(refused.headers.get('X-RateLimit-Limit')).to.equal('60');
    expect(refused.headers.get('X-RateLimit-Remaining')).to.equal('0');
    expect(Number(refused.headers.get('X-RateLimit-Reset'))).to.be.above(Date.now() / 1000);
    expect(refused.headers.get('Access-Control-Expose-Headers')).to.include('Retry-After');

    const otherClient = await requestAs(a.url, '203.0.113.91', COUNTED_PATH);
    expect(otherClient.status).to.equal(200);
    expect(otherClient.headers.get('X-RateLimit-Remaining')).to.equal('59');
  });

  it('keeps answering promptly while Redis is killed, and shares the limit again once it is back', async () => {
    const [a, b] = await startTwoApps(5, DEFAULT_COMMAND_TIMEOUT_MS);
    for (let i = 0; i < 10; i += 1)
      expect((await requestAs([a, b][i % 2]!.url, `192.0.2.${i + 1}`, COUNTED_PATH)).status).to.equal(200);

    await redis.kill();
    const duringOutage: TimedAnswer[] = [];
    for (let i = 0; i < 6; i += 1) duringOutage.push(await requestAs(a.url, '203.0.113.92', COUNTED_PATH));
    expect(duringOutage.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200, 429]);
    const slowest = Math.max(...duringOutage.map((answer) => answer.elapsedMs));
    console.log(`      slowest with Redis killed ${slowest.toFixed(1)} ms`);
    // A killed Redis refuses at once; a request that waited on it would wait past the command timeout.
    expect(slowest).to.be.below(boundedBy(DEFAULT_COMMAND_TIMEOUT_MS));
    expect(limiters[0]!.health()).to.deep.include({ status: 'degraded', store: 'redis' });

    await redis.restart();
    await Promise.all(limiters.map((limiter) => waitForHealth(limiter, 'ok')));
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 5; i += 1) {
      remaining.push(
        (await requestAs([a, b][i % 2]!.url, '203.0.113.93', COUNTED_PATH)).headers.get(
          'X-RateLimit-Remaining',
        ),
      );
    }
    expect(remaining).to.deep.equal(['4', '3', '2', '1', '0']);
  });
});
