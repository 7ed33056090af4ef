// Two instances sharing a real Redis Cluster (three masters started here): one quota per client whichever
// master holds its key; a master killed or frozen sends only its own keys to the insurance limiter (the API keeps
// answering, promptly), and once the cluster heals the quota is shared again.
import { expect } from 'chai';
import { createRateLimiter, type ClientRateLimiter } from '../../src/rateLimit/index.js';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../src/rateLimit/redisRateLimiter.js';
import {
  buildRateLimitedApp,
  capturingLogger,
  listen,
  type LogLine,
  type RunningApp,
} from '../support/rateLimitApp.js';
import { requestAs, waitForHealth, type TimedAnswer } from '../support/rateLimitClients.js';
import { RedisCluster, type RedisClusterNode } from '../support/redisCluster.js';
import { uniqueName } from '../support/services.js';
import { boundedBy } from '../support/timing.js';

const POINTS = 5;
// The contract, as for one Redis: while a master is away no request waits past the Redis command timeout, and only
// a probe a second per instance waits for it at all (counted by the frozen master itself).
const PROMPT_MS = boundedBy(DEFAULT_COMMAND_TIMEOUT_MS);

interface Instance {
  limiter: ClientRateLimiter;
  app: RunningApp;
  logLines: LogLine[];
}

describe('rate limit: a Redis Cluster of three masters', function () {
  this.timeout(60_000);
  let cluster: RedisCluster;
  let keyPrefix: string;
  let a: Instance;
  let b: Instance;
  /** Client addresses not used yet, by the master that holds their key. */
  const unusedClients = new Map<RedisClusterNode, string[]>();

  async function startInstance(): Promise<Instance> {
    const { logger, lines } = capturingLogger();
    const limiter = createRateLimiter({
      redisUrl: cluster.url,
      points: POINTS,
      windowSeconds: 60,
      keyPrefix,
      logger,
    });
    return { limiter, app: await listen(buildRateLimitedApp(limiter, 1)), logLines: lines };
  }

  /** A fresh client address whose rate-limit key lives on `node`. */
  function clientOn(node: RedisClusterNode): string {
    const client = unusedClients.get(node)?.shift();
    if (!client) throw new Error(`no client address left on ${node.address}`);
    return client;
  }

  /** One client alternating between the instances: the shared quota gives 4,3,2,1,0 and then refusals. */
  async function expectShared(clientIp: string): Promise<TimedAnswer[]> {
    const answers: TimedAnswer[] = [];
    for (let i = 0; i < POINTS + 2; i += 1)
      answers.push(await requestAs([a, b][i % 2]!.app.baseUrl, clientIp));
    expect(
      answers.map((answer) => [answer.status, answer.headers.get('X-RateLimit-Remaining')]),
      `shared quota of ${clientIp}`,
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

  /** Each instance counts the client on its own (the insurance limiter): 5 on A, and B still has its own 5. */
  async function expectCountedPerInstance(clientIp: string): Promise<TimedAnswer[]> {
    const answers: TimedAnswer[] = [];
    for (let i = 0; i < POINTS + 2; i += 1) answers.push(await requestAs(a.app.baseUrl, clientIp));
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
    const onB = await requestAs(b.app.baseUrl, clientIp);
    expect(onB.status, 'B counts the client apart from A').to.equal(200);
    expect(onB.headers.get('X-RateLimit-Remaining')).to.equal('4');
    return [...answers, onB];
  }

  /** Until both instances report ok, probing with a client on `node` (health returns with an answered request). */
  async function waitUntilShared(node: RedisClusterNode, timeoutMs = 15_000): Promise<void> {
    const probe = clientOn(node);
    const deadline = Date.now() + timeoutMs;
    while ([a, b].some((instance) => instance.limiter.health().status !== 'ok')) {
      if (Date.now() > deadline) throw new Error(`still degraded: ${JSON.stringify(a.limiter.health())}`);
      await Promise.all([a, b].map((instance) => requestAs(instance.app.baseUrl, probe)));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  function slowest(answers: TimedAnswer[]): number {
    return Math.max(...answers.map((answer) => answer.elapsedMs));
  }

  before(async () => {
    cluster = await RedisCluster.start(3);
    keyPrefix = uniqueName('rate-limit-cluster');
    for (const node of cluster.nodes) unusedClients.set(node, []);
    // Enough client addresses on every master for every step below.
    for (let i = 1; i < 255 && [...unusedClients.values()].some((list) => list.length < 10); i += 1) {
      const ip = `203.0.113.${i}`;
      unusedClients.get(await cluster.ownerOf(`${keyPrefix}:${ip}`))!.push(ip);
    }
    a = await startInstance();
    b = await startInstance();
    await waitForHealth(a.limiter, 'ok');
    await waitForHealth(b.limiter, 'ok');
  });

  after(async () => {
    for (const instance of [a, b]) {
      await instance?.app.close();
      await instance?.limiter.close();
    }
    await cluster?.stop();
  });

  it('shares one quota across two instances, for clients whose keys live on each of the three masters', async () => {
    for (const node of cluster.nodes) {
      const keysBefore = await node.keyCount();
      await expectShared(clientOn(node));
      expect(await node.keyCount(), `the count lives on ${node.address}`).to.equal(keysBefore + 1);
    }
    expect(a.limiter.health()).to.deep.equal({ status: 'ok', store: 'redis' });
  });

  it('keeps answering when a master is killed: its clients counted per instance, the others still shared; shared again once it is back', async () => {
    const [victim, ...survivors] = cluster.nodes as [RedisClusterNode, ...RedisClusterNode[]];
    await expectShared(clientOn(survivors[0]!));

    await victim.kill();
    const onDeadMaster = await expectCountedPerInstance(clientOn(victim));
    const stillShared = [];
    for (const node of survivors) stillShared.push(...(await expectShared(clientOn(node))));
    for (const instance of [a, b]) {
      expect(instance.limiter.health()).to.deep.include({ status: 'degraded', store: 'redis' });
      expect(instance.limiter.health().detail).to.include(victim.address);
    }
    console.log(
      `      master killed: slowest ${slowest(onDeadMaster).toFixed(1)} ms ` +
        `on its clients, ${slowest(stillShared).toFixed(1)} ms on the others`,
    );
    expect(slowest(onDeadMaster)).to.be.below(PROMPT_MS);
    expect(slowest(stillShared)).to.be.below(PROMPT_MS);

    const restartedAt = Date.now();
    await victim.start();
    await cluster.waitUntilHealthy();
    await waitUntilShared(victim);
    console.log(`      restarted master: shared again after ${Date.now() - restartedAt} ms`);
    await expectShared(clientOn(victim));
    for (const node of survivors) await expectShared(clientOn(node));

    for (const instance of [a, b]) {
      const changes = instance.logLines
        .filter((line) => line.redisServer !== undefined)
        .map((line) => [line.msg, line.redisServer]);
      expect(changes).to.deep.equal([
        ['rate limit: Redis unavailable; falling back to in-memory limits for this instance', victim.address],
        ['rate limit: Redis answers again; shared limits apply', victim.address],
      ]);
    }
  });

  it('keeps answering promptly when a master freezes (SIGSTOP): one probe a second waits for it, the others still shared', async () => {
    const [, frozen, ...others] = cluster.nodes as [
      RedisClusterNode,
      RedisClusterNode,
      ...RedisClusterNode[],
    ];
    await expectShared(clientOn(others[0]!));

    const callsBeforeFreeze = await frozen.scriptCalls();
    const frozenAt = Date.now();
    frozen.pause();
    let onFrozenMaster: TimedAnswer[] = [];
    try {
      onFrozenMaster = await expectCountedPerInstance(clientOn(frozen));
      const stillShared = await expectShared(clientOn(others[0]!));
      for (const instance of [a, b]) {
        expect(instance.limiter.health().detail).to.equal(
          `Redis ${frozen.address} did not answer within ${DEFAULT_COMMAND_TIMEOUT_MS} ms`,
        );
      }
      console.log(
        `      master frozen: slowest ${slowest(onFrozenMaster).toFixed(1)} ms, others ${slowest(stillShared).toFixed(1)} ms`,
      );
      expect(slowest(onFrozenMaster)).to.be.below(PROMPT_MS);
      expect(slowest(stillShared)).to.be.below(PROMPT_MS);
    } finally {
      frozen.resume();
    }
    // The master runs the commands it held once it runs again, so its own count says how many requests tried it:
    // the first on each instance, then at most one probe a second per instance (the breaker answers the rest from
    // memory at once). Counted by Redis, not by a clock.
    const frozenForMs = Date.now() - frozenAt;
    const triedFrozen = (await frozen.scriptCalls()) - callsBeforeFreeze;
    console.log(`      requests that tried the frozen master: ${triedFrozen} of ${onFrozenMaster.length}`);
    expect(triedFrozen)
      .to.be.at.least(2)
      .and.at.most(2 * (1 + Math.ceil(frozenForMs / 1000)));
    expect(triedFrozen).to.be.below(onFrozenMaster.length);
    await cluster.waitUntilHealthy();
    await waitUntilShared(frozen);
    await expectShared(clientOn(frozen));
  });
});
