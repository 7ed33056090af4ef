// Limits shared by every instance through Redis, with an in-memory fallback while Redis is away.
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { failOpen, toDecision } from './decision.js';
import { InsuranceMemoryLimiter } from './insuranceLimiter.js';
import type { RateLimitLogger } from './logger.js';
import { createRateLimitRedisClient } from './redisClient.js';
import { RedisStallBreaker } from './stallBreaker.js';
import { RedisStoreHealth } from './storeHealth.js';
import type { ClientRateLimiter, RateLimitDecision } from './types.js';

export interface RedisRateLimiterOptions {
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

export function createRedisRateLimiter(options: RedisRateLimiterOptions): ClientRateLimiter {
  const { points, windowSeconds, keyPrefix, logger } = options;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const client = createRateLimitRedisClient(options.redisUrl, { commandTimeoutMs });
  const storeHealth = new RedisStoreHealth(logger);
  const stallBreaker = new RedisStallBreaker(STALLED_REDIS_PROBE_INTERVAL_MS);
  const insurance = new InsuranceMemoryLimiter({ points, duration: windowSeconds, keyPrefix });
  // One EVALSHA per request: the library's Lua script increments and reads the TTL atomically.
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

  client.on('ready', () => {
    stallBreaker.redisAnswered();
    storeHealth.redisAnswered(storeHealth.ticket());
  });
  client.on('close', () => {
    if (!closing) storeHealth.redisFailed(storeHealth.ticket(), 'connection to Redis lost; reconnecting');
  });
  // Without a listener ioredis prints every failed reconnect attempt; the health change is logged once above.
  client.on('error', (error: Error) => logger.debug({ err: error }, 'rate limit: Redis client error'));

  const failureReason = (): string =>
    client.status === 'ready'
      ? `Redis did not answer within ${commandTimeoutMs} ms`
      : `Redis connection is ${client.status}`;

  return {
    points,
    windowSeconds,
    async consume(key: string): Promise<RateLimitDecision> {
      const ticket = storeHealth.ticket();
      const askRedis = stallBreaker.shouldAskRedis();
      const recordWhoAnswered = (result: RateLimiterRes): void => {
        // A request the breaker kept away from Redis observed nothing about it.
        if (!askRedis) return;
        if (!insurance.answered(result)) {
          stallBreaker.redisAnswered();
          storeHealth.redisAnswered(ticket);
          return;
        }
        // Connected yet silent past the timeout: stalled rather than gone (a lost connection fails at once).
        if (client.status === 'ready') stallBreaker.redisTimedOut();
        storeHealth.redisFailed(ticket, failureReason());
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
    health: () => storeHealth.current(),
    async close(): Promise<void> {
      closing = true;
      if (client.status === 'ready') {
        await client.quit().catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };
}
