// Two instances sharing Redis through Sentinel (a master, one replica, three sentinels started here): one quota;
// the master killed, the API keeps answering from the insurance limiter while Sentinel promotes the replica, and
// the quota is shared again on the new master with no action on the API.
import { expect } from 'chai';
import { createRateLimiter, type ClientRateLimiter } from '../../src/rateLimit/index.js';
import { buildRateLimitedApp, capturingLogger, listen, type RunningApp } from '../support/rateLimitApp.js';
import { requestAs, type TimedAnswer, waitForHealth } from '../support/rateLimitClients.js';
import { RedisSentinelGroup } from '../support/redisSentinel.js';
import { uniqueName } from '../support/services.js';
import { boundedBy } from '../support/timing.js';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../src/rateLimit/redisRateLimiter.js';

const POINTS = 5;

interface Instance {
  limiter: ClientRateLimiter;
  app: RunningApp;
}

describe('rate limit: Redis through Sentinel', function () {
  this.timeout(60_000);
  let group: RedisSentinelGroup;
  let a: Instance;
  let b: Instance;

  async function startInstance(keyPrefix: string): Promise<Instance> {
    const limiter = createRateLimiter({
      redisUrl: group.url,
      points: POINTS,
      windowSeconds: 60,
      keyPrefix,
      logger: capturingLogger().logger,
    });
    return { limiter, app: await listen(buildRateLimitedApp(limiter, 1)) };
  }

  async function expectShared(clientIp: string): Promise<TimedAnswer[]> {
    const answers: TimedAnswer[] = [];
    for (let i = 0; i < POINTS + 2; i += 1)
      answers.push(await requestAs([a, b][i % 2]!.app.baseUrl, clientIp));
    expect(
      answers.map((answer) => [answer.status, answer.headers.get('X-RateLimit-Remaining')]),
    ).to.deep.equal([
      [200, '4'],
      [200, '3'],
      [200, '2'],
      [200, '1'],
      [200, '0'],
      [429, '0'],
      [429, '0'],
    ]);
    return answers;
  }

  before(async () => {
    group = await RedisSentinelGroup.start();
    const keyPrefix = uniqueName('rate-limit-sentinel');
    a = await startInstance(keyPrefix);
    b = await startInstance(keyPrefix);
    await waitForHealth(a.limiter, 'ok');
    await waitForHealth(b.limiter, 'ok');
  });

  after(async () => {
    for (const instance of [a, b]) {
      await instance?.app.close();
      await instance?.limiter.close();
    }
    await group?.stop();
  });

  it('shares one quota on the master the sentinels name', async () => {
    await expectShared('203.0.113.1');
    expect(Number(await group.master.call('DBSIZE'))).to.equal(1);
  });

  it('keeps answering when the master is killed, and shares again on the promoted replica', async () => {
    await expectShared('203.0.113.2');

    const killedAt = Date.now();
    await group.master.kill();
    const duringFailover: TimedAnswer[] = [];
    for (let i = 0; i < POINTS + 2; i += 1)
      duringFailover.push(await requestAs(a.app.baseUrl, '203.0.113.3'));
    // A counts the client in memory; B has its own count.
    expect(duringFailover.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
    duringFailover.push(await requestAs(b.app.baseUrl, '203.0.113.3'));
    expect(duringFailover.at(-1)!.status).to.equal(200);
    expect(a.limiter.health().status).to.equal('degraded');
    expect(b.limiter.health().status).to.equal('degraded');
    const slowest = Math.max(...duringFailover.map((answer) => answer.elapsedMs));
    // The killed master refuses at once; a request queued for the promoted replica would wait past the command
    // timeout (the limiter's own deadline) until the failover, seconds later.
    expect(slowest).to.be.below(boundedBy(DEFAULT_COMMAND_TIMEOUT_MS));

    await group.waitForMaster(group.replica);
    await waitForHealth(a.limiter, 'ok', 10_000);
    await waitForHealth(b.limiter, 'ok', 10_000);
    console.log(
      `      during the failover slowest ${slowest.toFixed(1)} ms; ` +
        `shared again ${Date.now() - killedAt} ms after the kill`,
    );
    await expectShared('203.0.113.4');
    // The count lives on the promoted replica, which also kept what the old master had replicated.
    expect(Number(await group.replica.call('DBSIZE'))).to.equal(3);
  });
});
