// Redis stopped or paused under two running instances: every request is still answered promptly from the
// in-memory fallback, and the shared limit returns by itself. Uses a private redis-server, never the shared one.
import { expect } from 'chai';
import { createRateLimiter, type ClientRateLimiter } from '../../src/rateLimit/index.js';
import {
  buildRateLimitedApp,
  capturingLogger,
  listen,
  type LogLine,
  type RunningApp,
} from '../support/rateLimitApp.js';
import { requestAs, waitForHealth, type TimedAnswer } from '../support/rateLimitClients.js';
import { RedisServer } from '../support/redisServer.js';
import { uniqueName } from '../support/services.js';
import { boundedBy, SHARED_MACHINE_SLACK_MS } from '../support/timing.js';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../src/rateLimit/redisRateLimiter.js';

const POINTS = 5;
const BURST = 20;

interface Instance {
  limiter: ClientRateLimiter;
  app: RunningApp;
  logLines: LogLine[];
}

describe('rate limit: Redis outage and return', function () {
  this.timeout(60_000);
  let redis: RedisServer;
  let a: Instance;
  let b: Instance;

  async function startInstance(keyPrefix: string): Promise<Instance> {
    const { logger, lines } = capturingLogger();
    const limiter = createRateLimiter({
      redisUrl: redis.url,
      points: POINTS,
      windowSeconds: 60,
      keyPrefix,
      logger,
    });
    return { limiter, app: await listen(buildRateLimitedApp(limiter, 1)), logLines: lines };
  }

  /** One client alternating between the instances: the shared quota gives 4,3,2,1,0 and then refusals. */
  async function expectSharedLimit(clientIp: string): Promise<void> {
    const answers: TimedAnswer[] = [];
    for (let i = 0; i < POINTS + 2; i += 1)
      answers.push(await requestAs([a, b][i % 2]!.app.baseUrl, clientIp));
    expect(answers.map((answer) => answer.headers.get('X-RateLimit-Remaining'))).to.deep.equal([
      '4',
      '3',
      '2',
      '1',
      '0',
      '0',
      '0',
    ]);
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
  }

  /**
   * No request waits longer than the Redis command timeout, the limiter's own deadline (plus the shared machine's
   * slack): a request queued behind an unanswered Redis would wait until the test's timeout. How many requests
   * tried Redis at all is counted by Redis itself (the paused case below), not by a clock.
   */
  function expectPrompt(sequential: TimedAnswer[], burst: TimedAnswer[]): void {
    const slowest = Math.max(...sequential.map((answer) => answer.elapsedMs));
    const slowestInBurst = Math.max(...burst.map((answer) => answer.elapsedMs));
    console.log(
      `      during the outage: slowest ${slowest.toFixed(1)} ms, burst ${slowestInBurst.toFixed(1)} ms`,
    );
    expect(slowest).to.be.below(boundedBy(DEFAULT_COMMAND_TIMEOUT_MS));
    expect(slowestInBurst).to.be.below(boundedBy(DEFAULT_COMMAND_TIMEOUT_MS));
  }

  const messages = (instance: Instance): string[] => instance.logLines.map((line) => line.msg);

  beforeEach(async () => {
    redis = await RedisServer.start();
    // Both instances use one prefix, so they share a quota, as deployed.
    const keyPrefix = uniqueName('rate-limit-outage');
    a = await startInstance(keyPrefix);
    b = await startInstance(keyPrefix);
    await waitForHealth(a.limiter, 'ok');
    await waitForHealth(b.limiter, 'ok');
  });

  afterEach(async () => {
    for (const instance of [a, b]) {
      await instance.app.close();
      await instance.limiter.close();
    }
    await redis.kill();
  });

  it('keeps answering with in-memory limits when Redis is killed, and shares again once it is back', async () => {
    await redis.kill();

    const duringOutage: TimedAnswer[] = [];
    for (let i = 0; i < POINTS + 2; i += 1) duringOutage.push(await requestAs(a.app.baseUrl, '203.0.113.60'));
    // Each instance now counts on its own: A refuses after 5, B still has its own 5 for the same client.
    expect(duringOutage.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
    expect((await requestAs(b.app.baseUrl, '203.0.113.60')).status).to.equal(200);
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => requestAs([a, b][i % 2]!.app.baseUrl, `198.51.100.${i + 1}`)),
    );
    expect(burst.every((answer) => answer.status === 200)).to.equal(true);
    expectPrompt(duringOutage, burst);
    expect(a.limiter.health()).to.deep.include({ status: 'degraded', store: 'redis' });
    expect(b.limiter.health().status).to.equal('degraded');

    await redis.restart();
    await waitForHealth(a.limiter, 'ok');
    await waitForHealth(b.limiter, 'ok');
    await expectSharedLimit('203.0.113.61');

    for (const instance of [a, b]) {
      expect(messages(instance)).to.deep.equal([
        'rate limit: Redis ready; limits are shared by every instance',
        'rate limit: Redis unavailable; falling back to in-memory limits for this instance',
        'rate limit: Redis answers again; shared limits apply',
      ]);
    }
  });

  it('keeps answering promptly when Redis is paused (CLIENT PAUSE), and shares again after', async () => {
    // Long enough for the 6 + BURST requests below (well under a second alone) on a loaded machine too.
    const pauseMs = 1000 + SHARED_MACHINE_SLACK_MS;
    const callsBeforePause = await redis.scriptCalls();
    const pausedAt = Date.now();
    await redis.pause(pauseMs);

    const duringPause: TimedAnswer[] = [];
    for (let i = 0; i < 6; i += 1)
      duringPause.push(await requestAs([a, b][i % 2]!.app.baseUrl, '203.0.113.70'));
    expect(duringPause.every((answer) => answer.status === 200)).to.equal(true);
    const burst = await Promise.all(
      Array.from({ length: BURST }, (_, i) => requestAs([a, b][i % 2]!.app.baseUrl, `198.51.100.${i + 1}`)),
    );
    expect(burst.every((answer) => answer.status === 200)).to.equal(true);
    const measuredForMs = Date.now() - pausedAt;
    expect(measuredForMs).to.be.below(pauseMs, 'the measurements must fall inside the pause');
    expectPrompt(duringPause, burst);
    expect(a.limiter.health()).to.deep.include({ status: 'degraded', store: 'redis' });
    expect(a.limiter.health().detail).to.equal(
      `Redis did not answer within ${DEFAULT_COMMAND_TIMEOUT_MS} ms`,
    );
    expect(b.limiter.health().status).to.equal('degraded');

    await new Promise((resolve) => setTimeout(resolve, pauseMs - (Date.now() - pausedAt) + 100));
    // Redis runs the commands it held once the pause ends, so its own count says how many of the
    // 6 + BURST requests tried it: the first per instance, then at most one probe a second per instance
    // (the breaker sends the rest to memory at once). Counted by Redis, not by a clock.
    const triedRedis = (await redis.scriptCalls()) - callsBeforePause;
    const probesAllowed = 2 * (1 + Math.ceil(measuredForMs / 1000));
    console.log(`      requests that tried Redis during the pause: ${triedRedis} of ${6 + BURST}`);
    expect(triedRedis).to.be.at.least(1).and.at.most(probesAllowed);
    // The connection never dropped: Redis is back once a probe (one request a second) gets an answer.
    const probeDeadline = Date.now() + 3000;
    while (
      [a, b].some((instance) => instance.limiter.health().status !== 'ok') &&
      Date.now() < probeDeadline
    ) {
      await Promise.all([a, b].map((instance) => requestAs(instance.app.baseUrl, '192.0.2.200')));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(a.limiter.health()).to.deep.equal({ status: 'ok', store: 'redis' });
    expect(b.limiter.health()).to.deep.equal({ status: 'ok', store: 'redis' });
    await expectSharedLimit('203.0.113.71');

    for (const instance of [a, b]) {
      expect(messages(instance)).to.deep.equal([
        'rate limit: Redis ready; limits are shared by every instance',
        'rate limit: Redis unavailable; falling back to in-memory limits for this instance',
        'rate limit: Redis answers again; shared limits apply',
      ]);
    }
  });
});
