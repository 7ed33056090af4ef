// Limits shared by every instance through Redis, with an in-memory fallback while Redis is away.
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { failOpen, toDecision } from './decision.js';
import { InsuranceMemoryLimiter } from './insuranceLimiter.js';
import type { RateLimitLogger } from './limiterLog.js';
import { createRedisConnection, type RedisConnection } from '../../settings/redisClient.js';
import { RedisStallBreaker } from './stallBreaker.js';
import { WHOLE_STORE } from '../../settings/redisClient.js';
import { RedisStoreHealth } from './storeHealth.js';
import type { ClientRateLimiter, RateLimitDecision } from './types.js';

export interface RedisRateLimiterOptions {
  /** One Redis, a Sentinel group or a Cluster (./redisUrl.ts). */
  redisUrl: string;
  points: number;
  windowSeconds: number;
  keyPrefix: string;
  logger: RateLimitLogger;
  /** How long a Redis command may take before the in-memory fallback answers. */
  commandTimeoutMs?: number;
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 200;
/** While Redis is stalled, how often one request probes it (so it returns within about this long). */
export const STALLED_REDIS_PROBE_INTERVAL_MS = 1000;
// A timer may fire a millisecond early; a failure this close to the timeout was the timeout.
const TIMER_SLACK_MS = 5;

export function createRedisRateLimiter(options: RedisRateLimiterOptions): ClientRateLimiter {
  const { points, windowSeconds, keyPrefix, logger } = options;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const connection = createRedisConnection(options.redisUrl, { commandTimeoutMs });
  const { client } = connection;
  const storeHealth = new RedisStoreHealth(logger);
  const stallBreakerOf = stallBreakerPerServer();
  const insurance = new InsuranceMemoryLimiter({ points, duration: windowSeconds, keyPrefix });
  // One EVALSHA per request: the library's Lua script increments and reads the TTL of one key atomically, so
  // in a Cluster each call touches one slot (no hash tag needed; without one, clients spread over the masters).
  const shared = new RateLimiterRedis({
    storeClient: client,
    points,
    duration: windowSeconds,
    keyPrefix,
    insuranceLimiter: insurance,
    // While disconnected, go straight to the insurance limiter instead of sending into a dead socket.
    rejectIfRedisNotReady: true,
  });
  let closing = false;
  watchConnection({ connection, storeHealth, stallBreakerOf, logger, closing: () => closing });
  const failureReason = failureReasonOf(connection, commandTimeoutMs);

  return {
    points,
    windowSeconds,
    async consume(key: string): Promise<RateLimitDecision> {
      const ticket = storeHealth.ticket();
      const server = connection.serverOf(shared.getKey(key));
      const stallBreaker = stallBreakerOf(server);
      const askRedis = stallBreaker.shouldAskRedis();
      const started = performance.now();
      const recordWhoAnswered = (result: RateLimiterRes): void => {
        // A request the breaker kept away from Redis observed nothing about it.
        if (!askRedis) return;
        if (!insurance.answered(result)) {
          stallBreaker.redisAnswered();
          storeHealth.redisAnswered(ticket);
          if (server !== WHOLE_STORE) storeHealth.redisAnswered(ticket, server);
          return;
        }
        if (client.status !== 'ready') {
          storeHealth.redisFailed(ticket, failureReason(WHOLE_STORE, false));
          return;
        }
        // Connected yet silent for the whole timeout: stalled rather than gone (a lost connection fails at once).
        const stalled = performance.now() - started >= commandTimeoutMs - TIMER_SLACK_MS;
        if (stalled) stallBreaker.redisTimedOut();
        storeHealth.redisFailed(ticket, failureReason(server, stalled), server);
      };
      try {
        const result = await (askRedis ? shared : insurance).consume(key);
        recordWhoAnswered(result);
        return toDecision(result, true, points, windowSeconds);
      } catch (rejection) {
        // A RateLimiterRes is a refusal (from Redis or the insurance); anything else is a failure of both.
        if (!(rejection instanceof RateLimiterRes)) return failOpen(rejection, points, windowSeconds, logger);
        recordWhoAnswered(rejection);
        return toDecision(rejection, false, points, windowSeconds);
      }
    },
    health: () => storeHealth.current(connection.holdsKeys),
    async close(): Promise<void> {
      closing = true;
      // QUIT lets in-flight commands finish; disconnect() then also ends what QUIT leaves (Sentinel's
      // connections, a Cluster's reconnecting nodes).
      if (client.status === 'ready') await client.quit().catch(() => undefined);
      client.disconnect();
    },
  };
}

/**
 * A stall breaker per server, made at its first request: in a Cluster a stalled master must not send the other
 * masters' keys to memory.
 */
function stallBreakerPerServer(): (server: string) => RedisStallBreaker {
  const stallBreakers = new Map<string, RedisStallBreaker>();
  return (server) => {
    let breaker = stallBreakers.get(server);
    if (!breaker) {
      breaker = new RedisStallBreaker(STALLED_REDIS_PROBE_INTERVAL_MS);
      stallBreakers.set(server, breaker);
    }
    return breaker;
  };
}

/** What the connection itself tells: Redis ready again, the connection lost (unless closing), the client's errors. */
function watchConnection({
  connection: { client },
  storeHealth,
  stallBreakerOf,
  logger,
  closing,
}: {
  connection: RedisConnection;
  storeHealth: RedisStoreHealth;
  stallBreakerOf: (server: string) => RedisStallBreaker;
  logger: RateLimitLogger;
  closing: () => boolean;
}): void {
  client.on('ready', () => {
    stallBreakerOf(WHOLE_STORE).redisAnswered();
    storeHealth.redisAnswered(storeHealth.ticket());
  });
  client.on('close', () => {
    if (!closing()) storeHealth.redisFailed(storeHealth.ticket(), 'connection to Redis lost; reconnecting');
  });
  // Without a listener ioredis prints every failed reconnect attempt; the health change is logged once above.
  client.on('error', (error: Error) => logger.debug({ err: error }, 'rate limit: Redis client error'));
  // A Cluster reports a master it cannot reach as a node error, each reconnect attempt again.
  client.on('node error', (error: Error, server: string) =>
    logger.debug({ err: error, redisServer: server }, 'rate limit: Redis Cluster node error'),
  );
}

/** Why a command to `server` went to the in-memory fallback, in the words the health report shows. */
function failureReasonOf(
  connection: RedisConnection,
  commandTimeoutMs: number,
): (server: string, stalled: boolean) => string {
  return (server, stalled) => {
    const redis = server === WHOLE_STORE ? 'Redis' : `Redis ${server}`;
    if (stalled) return `${redis} did not answer within ${commandTimeoutMs} ms`;
    if (connection.client.status !== 'ready') return `Redis connection is ${connection.client.status}`;
    return connection.kind === 'cluster'
      ? `${redis} is unreachable or does not serve its slots`
      : `${redis} refused the command`;
  };
}
