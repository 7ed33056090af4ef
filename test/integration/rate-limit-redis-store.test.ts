// How the limiter uses Redis, watched on a private redis-server (MONITOR there sees only our traffic).
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createRateLimiter, type ClientRateLimiter } from '../../src/rateLimit/index.js';
import { buildRateLimitedApp, capturingLogger, listen, type RunningApp } from '../support/rateLimitApp.js';
import { requestAs, waitForHealth } from '../support/rateLimitClients.js';
import { RedisServer } from '../support/redisServer.js';
import { uniqueName } from '../support/services.js';
import { boundedBy } from '../support/timing.js';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../src/rateLimit/redisRateLimiter.js';

describe('rate limit: Redis store', function () {
  this.timeout(30_000);
  let redis: RedisServer;
  const cleanups: Array<() => Promise<void>> = [];

  async function startInstance(limiter: ClientRateLimiter): Promise<RunningApp> {
    const app = await listen(buildRateLimitedApp(limiter, 1));
    cleanups.push(async () => {
      await app.close();
      await limiter.close();
    });
    return app;
  }

  beforeEach(async () => {
    redis = await RedisServer.start();
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await redis.kill();
  });

  it('makes one Redis round trip per request', async () => {
    const limiter = createRateLimiter({
      redisUrl: redis.url,
      points: 60,
      windowSeconds: 60,
      keyPrefix: uniqueName('rate-limit-trips'),
      logger: pino({ level: 'silent' }),
    });
    const app = await startInstance(limiter);
    await waitForHealth(limiter, 'ok');
    // The first call on a connection may also load the Lua script (NOSCRIPT, then EVAL).
    await requestAs(app.baseUrl, '192.0.2.1');

    const observer = new Redis(redis.url);
    const monitor = await observer.monitor();
    const seen: string[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      // Commands the script runs inside Redis show as source "lua"; they are not round trips.
      if (source !== 'lua') seen.push(String(args[0]).toLowerCase());
    });
    try {
      for (let i = 0; i < 10; i += 1) await requestAs(app.baseUrl, `192.0.2.${(i % 3) + 1}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      monitor.disconnect();
      observer.disconnect();
    }
    expect(seen).to.deep.equal(new Array(10).fill('evalsha'));
  });

  it('answers from memory when Redis is down at start-up, and moves to Redis once it comes up', async () => {
    await redis.kill();
    const { logger, lines } = capturingLogger();
    const limiter = createRateLimiter({
      redisUrl: redis.url,
      points: 2,
      windowSeconds: 60,
      keyPrefix: uniqueName('rate-limit-startup'),
      logger,
    });
    const app = await startInstance(limiter);

    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await requestAs(app.baseUrl, '203.0.113.80'));
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 429]);
    // Refused connections fail at once; a request waiting on the down Redis would wait past its command timeout.
    expect(Math.max(...answers.map((answer) => answer.elapsedMs))).to.be.below(
      boundedBy(DEFAULT_COMMAND_TIMEOUT_MS),
    );
    expect(limiter.health()).to.deep.include({ status: 'degraded', store: 'redis' });

    await redis.restart();
    await waitForHealth(limiter, 'ok');
    const afterStart = await requestAs(app.baseUrl, '203.0.113.81');
    expect(afterStart.headers.get('X-RateLimit-Remaining')).to.equal('1');
    const inspector = new Redis(redis.url);
    try {
      expect(await inspector.keys('*')).to.have.length(1);
    } finally {
      inspector.disconnect();
    }
    expect(lines.map((line) => line.msg)).to.deep.equal([
      'rate limit: Redis unavailable; falling back to in-memory limits for this instance',
      'rate limit: Redis answers again; shared limits apply',
    ]);
  });
});
