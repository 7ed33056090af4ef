// The contract between the rate limiter (src/rateLimit) and the app that mounts it (src/app.ts).

export interface RateLimitDecision {
  allowed: boolean;
  /** Quota per window (RATE_LIMIT_POINTS). */
  limit: number;
  /** Requests left in the current window after this one (0 when refused). */
  remaining: number;
  /** Whole seconds until the window resets (>= 1 when refused). */
  resetSeconds: number;
}

export interface LimiterHealth {
  /** 'ok': the configured store answers; 'degraded': Redis is away and in-memory limits apply. */
  status: 'ok' | 'degraded';
  store: 'redis' | 'memory';
  detail?: string;
}

export interface ClientRateLimiter {
  readonly points: number;
  readonly windowSeconds: number;
  /** Counts one request for `key` (a client IP or /64) and says whether it may proceed. Never throws. */
  consume(key: string): Promise<RateLimitDecision>;
  health(): LimiterHealth;
  close(): Promise<void>;
}
