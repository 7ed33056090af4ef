// redisRateLimiter without a Redis that answers (no external service: a port nothing listens on, and an in-process
// socket that accepts and never answers): the limits still hold, counted in memory, with the quota it was given;
// the health says why; a stalled Redis is asked once, then at most once per probe interval, not by every request.
import { expect } from 'chai';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  createRedisRateLimiter,
  DEFAULT_COMMAND_TIMEOUT_MS,
  STALLED_REDIS_PROBE_INTERVAL_MS,
} from '../../../../src/rateLimit/redisRateLimiter.js';
import type { RateLimitLogger } from '../../../../src/rateLimit/limiterLog.js';
import type { ClientRateLimiter } from '../../../../src/rateLimit/types.js';
import { boundedBy } from '../../../support/timing.js';
import { freePort, uniqueName } from '../../../../tools/services/net.js';

const lines: string[] = [];
const logger = {
  info: (_fields: unknown, msg?: string) => lines.push(`info ${msg}`),
  warn: (_fields: unknown, msg?: string) => lines.push(`warn ${msg}`),
  error: (_fields: unknown, msg?: string) => lines.push(`error ${msg}`),
  debug: () => undefined,
} as unknown as RateLimitLogger;

/**
 * A stalled Redis on an in-process socket: it answers the client's handshake (INFO for the ready check, +OK to
 * anything else) so the connection is ready, and never answers a script (EVAL, EVALSHA: one per decision), which it
 * counts. Each command arrives as a RESP array whose first bulk string is its name.
 */
const INFO = '# Server\r\nloading:0\r\n';

async function stalledRedis(): Promise<{ url: string; scripts: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let scripts = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => {
      for (const [, name] of chunk.toString('latin1').matchAll(/\*\d+\r\n\$\d+\r\n([A-Za-z]+)\r\n/g)) {
        const command = name!.toUpperCase();
        if (command === 'EVAL' || command === 'EVALSHA') scripts += 1;
        else if (command === 'INFO') socket.write(`$${INFO.length}\r\n${INFO}\r\n`);
        else socket.write('+OK\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    scripts: () => scripts,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition(), 'in time').to.equal(true);
}

describe('rateLimit/redisRateLimiter: with a Redis that does not answer', function () {
  this.timeout(20_000);
  let limiter: ClientRateLimiter | undefined;

  afterEach(async () => {
    await limiter?.close();
    limiter = undefined;
    lines.length = 0;
  });

  it('counts in memory with its own quota while nothing listens, and says so in its health', async () => {
    limiter = createRedisRateLimiter({
      redisUrl: `redis://127.0.0.1:${await freePort()}`,
      points: 2,
      windowSeconds: 60,
      keyPrefix: uniqueName('unit-redis-limiter'),
      logger,
    });
    expect(limiter).to.include({ points: 2, windowSeconds: 60 });
    const decisions = [];
    for (let i = 0; i < 3; i += 1) decisions.push(await limiter.consume('203.0.113.1'));
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).to.deep.equal([
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect((await limiter.consume('203.0.113.2')).allowed, 'another client has its own count').to.equal(true);
    const health = limiter.health();
    expect(health).to.deep.include({ status: 'degraded', store: 'redis' });
    expect(health.detail).to.match(/^Redis connection is |connection to Redis lost/);
  });

  it('waits out one command timeout on a stalled Redis, then answers from memory, probing it once a second', async () => {
    const redis = await stalledRedis();
    try {
      limiter = createRedisRateLimiter({
        redisUrl: redis.url,
        points: 5,
        windowSeconds: 60,
        keyPrefix: uniqueName('unit-redis-limiter'),
        logger,
      });
      await waitUntil(() => limiter!.health().status === 'ok');
      const answers = [];
      const started = performance.now();
      for (let i = 0; i < 10; i += 1) answers.push(await limiter.consume('203.0.113.3'));
      const tookMs = performance.now() - started;
      expect(answers.map((answer) => answer.allowed)).to.deep.equal([
        ...Array(5).fill(true),
        ...Array(5).fill(false),
      ]);
      expect(limiter.health()).to.deep.equal({
        status: 'degraded',
        store: 'redis',
        detail: `Redis did not answer within ${DEFAULT_COMMAND_TIMEOUT_MS} ms`,
      });
      // Counted by the stalled Redis, not by a clock: the first request, then one probe per interval at most.
      expect(redis.scripts())
        .to.be.at.least(1)
        .and.at.most(1 + Math.floor(tookMs / STALLED_REDIS_PROBE_INTERVAL_MS));
      // Ten requests that each waited out the command timeout would be a stall per request: a hang, not a wait.
      expect(tookMs).to.be.below(boundedBy(DEFAULT_COMMAND_TIMEOUT_MS));
      expect(lines).to.include(
        'warn rate limit: Redis unavailable; falling back to in-memory limits for this instance',
      );
    } finally {
      await redis.close();
    }
  });
});
