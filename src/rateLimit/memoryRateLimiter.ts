// Limits in this process's memory: for a single instance without REDIS_URL.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { failOpen, toDecision } from './decision.js';
import type { RateLimitLogger } from './limiterLog.js';
import type { ClientRateLimiter, RateLimitDecision } from './types.js';

export interface MemoryRateLimiterOptions {
  points: number;
  windowSeconds: number;
  keyPrefix: string;
  logger: RateLimitLogger;
}

export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): ClientRateLimiter {
  const { points, windowSeconds, keyPrefix, logger } = options;
  const limiter = new RateLimiterMemory({ points, duration: windowSeconds, keyPrefix });

  return {
    points,
    windowSeconds,
    async consume(key: string): Promise<RateLimitDecision> {
      try {
        return toDecision(await limiter.consume(key), true, points, windowSeconds);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return toDecision(rejection, false, points, windowSeconds);
        return failOpen(rejection, points, windowSeconds, logger);
      }
    },
    health: () => ({ status: 'ok', store: 'memory' }),
    close: async () => {},
  };
}
