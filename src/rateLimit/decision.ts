// Maps rate-limiter-flexible's result onto the decision the middleware renders.
import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitLogger } from './limiterLog.js';
import type { RateLimitDecision } from './types.js';

export function toDecision(
  result: RateLimiterRes,
  allowed: boolean,
  points: number,
  windowSeconds: number,
): RateLimitDecision {
  return {
    allowed,
    limit: points,
    remaining: allowed ? Math.max(result.remainingPoints, 0) : 0,
    resetSeconds: secondsUntilReset(result.msBeforeNext, windowSeconds),
  };
}

/** Rounded up, so a client that waits this long is never refused for being early. */
export function secondsUntilReset(msBeforeNext: number, windowSeconds: number): number {
  // A negative value means "no expiry", which our limiters never create; the window is the honest bound.
  if (msBeforeNext < 0) return windowSeconds;
  return Math.min(Math.max(Math.ceil(msBeforeNext / 1000), 1), windowSeconds);
}

/**
 * When no limiter can count (a bug, not an outage: the in-memory store cannot be down), the request is let
 * through: refusing every client would turn a limiter fault into a full outage.
 */
export function failOpen(
  error: unknown,
  points: number,
  windowSeconds: number,
  logger: RateLimitLogger,
): RateLimitDecision {
  logger.error({ err: error }, 'rate limit: no limiter could count this request; letting it through');
  return { allowed: true, limit: points, remaining: points, resetSeconds: windowSeconds };
}
