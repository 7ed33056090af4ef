// Hardening headers for a JSON-only API, on every response (errors included).
import type { Middleware } from 'koa';

export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // Nothing this API serves is meant to be rendered, framed or to load anything.
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
} as const;

export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set(SECURITY_HEADERS);
    await next();
  };
}
