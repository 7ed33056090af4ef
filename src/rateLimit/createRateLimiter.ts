// Chooses the limiter the configuration asks for: shared through Redis, or in this process's memory.
import type { RateLimitLogger } from './limiterLog.js';
import { createMemoryRateLimiter } from './memoryRateLimiter.js';
import { createRedisRateLimiter } from './redisRateLimiter.js';
import type { ClientRateLimiter } from './types.js';

export interface RateLimiterOptions {
  /** REDIS_URL; without it limits are kept in memory (one instance). */
  redisUrl?: string;
  /** RATE_LIMIT_POINTS: requests allowed per window. */
  points: number;
  /** RATE_LIMIT_WINDOW_S. */
  windowSeconds: number;
  /** Prefix of the Redis keys; tests give each run its own. */
  keyPrefix?: string;
  logger: RateLimitLogger;
  /** Redis command timeout before the in-memory fallback answers (default 200 ms). */
  commandTimeoutMs?: number;
}

export const DEFAULT_KEY_PREFIX = 'ppa-api:rate-limit';

export function createRateLimiter(options: RateLimiterOptions): ClientRateLimiter {
  const { redisUrl, points, windowSeconds, logger, commandTimeoutMs } = options;
  if (!Number.isInteger(points) || points < 1)
    throw new RangeError('rate limit points must be an integer >= 1');
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) {
    throw new RangeError('rate limit window must be a whole number of seconds >= 1');
  }
  const keyPrefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  if (redisUrl) {
    return createRedisRateLimiter({ redisUrl, points, windowSeconds, keyPrefix, logger, commandTimeoutMs });
  }
  return createMemoryRateLimiter({ points, windowSeconds, keyPrefix, logger });
}
