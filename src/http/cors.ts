// CORS for a public, credential-free API: any origin may read every response, errors included, and a
// preflight (any OPTIONS request) is answered here, before the rate limiter and the routes ever see it.
import type { Middleware } from 'koa';
import { ALLOWED_METHODS } from './problem.js';

/** Headers every answer may carry that a page's script may read; the app adds those of its other layers. */
const EXPOSED_HEADERS = ['Retry-After', 'Link', 'ETag', 'X-Request-Id', 'Last-Modified', 'Changes-Since'];

/** Browsers cap it lower (Chromium: 2 h); the preflight answer never changes anyway. */
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

// A comma-separated list of header names (RFC 9110 tokens), safe to echo back.
const HEADER_NAME_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/** The CORS headers of every answer; `alsoExposed`: the headers of other layers (the rate limit's). */
export function corsHeaders(alsoExposed: readonly string[] = []): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': [...alsoExposed, ...EXPOSED_HEADERS].join(', '),
  };
}

/**
 * `alsoExposed`: the headers of other layers (the rate limit's); `methodsOf`: the methods a path takes (the
 * reconciliation services' roots take POST too), else the read methods.
 */
export function cors(
  alsoExposed: readonly string[] = [],
  methodsOf: (path: string) => string = () => ALLOWED_METHODS,
): Middleware {
  const always = corsHeaders(alsoExposed);
  return async (ctx, next) => {
    ctx.set(always);
    if (ctx.method !== 'OPTIONS') return next();

    const methods = methodsOf(ctx.path);
    ctx.set('Allow', methods);
    ctx.set('Access-Control-Allow-Methods', methods);
    const requested = ctx.get('Access-Control-Request-Headers').trim();
    // No credentials are read anywhere, so whatever request headers a page wants to send are fine.
    if (HEADER_NAME_LIST.test(requested)) ctx.set('Access-Control-Allow-Headers', requested);
    ctx.set('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    ctx.status = 204;
  };
}
