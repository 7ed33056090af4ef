// Koa middleware: counts each request against its client's quota and says so in the headers.
import type { Context, Middleware } from 'koa';
import { TooManyRequestsError } from '../http/problem.js';
import { clientKey } from './clientKey.js';
import type { ClientRateLimiter, RateLimitDecision } from './types.js';

/** Response headers this middleware sets; CORS should expose them (with Retry-After). */
export const RATE_LIMIT_HEADER_NAMES = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const;

/** Counts every request it sees (the app mounts it for API paths only), a CORS preflight aside. */
export function rateLimit(limiter: ClientRateLimiter): Middleware {
  return async (ctx, next) => {
    if (isCorsPreflight(ctx)) return next();
    const decision = await limiter.consume(clientKey(ctx.ip));
    // Set before next(): an error thrown downstream (or the 429 below) is rendered by the outer error
    // middleware on this same response, so the headers reach the client on every answer.
    ctx.set(rateLimitHeaders(decision, limiter.windowSeconds, Date.now()));
    if (!decision.allowed) {
      throw new TooManyRequestsError(decision.resetSeconds, decision.limit, limiter.windowSeconds);
    }
    await next();
  };
}

export function rateLimitHeaders(
  decision: RateLimitDecision,
  windowSeconds: number,
  nowMs: number,
): Record<(typeof RATE_LIMIT_HEADER_NAMES)[number], string> {
  return {
    'RateLimit-Policy': `"per-ip";q=${decision.limit};w=${windowSeconds}`,
    RateLimit: `"per-ip";r=${decision.remaining};t=${decision.resetSeconds}`,
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    // Rounded up so it is never before the real reset.
    'X-RateLimit-Reset': String(Math.ceil(nowMs / 1000 + decision.resetSeconds)),
  };
}

/** A browser's preflight is not a client request: it is neither counted nor refused. */
function isCorsPreflight(ctx: Context): boolean {
  return ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '';
}
