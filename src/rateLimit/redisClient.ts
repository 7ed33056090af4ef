// An ioredis client for the rate limiter: it fails fast instead of queueing or hanging when Redis is away.
import { Redis } from 'ioredis';

export interface RateLimitRedisClientOptions {
  /** Past this a command counts as failed and the in-memory fallback answers. */
  commandTimeoutMs: number;
}

export function createRateLimitRedisClient(redisUrl: string, options: RateLimitRedisClientOptions): Redis {
  return new Redis(redisUrl, {
    // Commands sent while disconnected fail at once rather than wait for a reconnect.
    enableOfflineQueue: false,
    commandTimeout: options.commandTimeoutMs,
    // In-flight commands are not replayed after a reconnect: the request has been answered by then.
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    // Reconnect forever, backing off to one attempt a second, so Redis returns without a restart.
    retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
  });
}
