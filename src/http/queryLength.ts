// Refuses a query string longer than MAX_QUERY_STRING_BYTES (414) before any parsing: every request's cost is
// bounded, and no legal answer can repeat a longer one in its links and Link header.
import type { Middleware } from 'koa';
import { MAX_QUERY_STRING_BYTES, UriTooLongError } from './problem.js';

export function boundedQueryString(): Middleware {
  return async (ctx, next) => {
    // Node hands over the request target byte for byte (latin1): its length is the byte count as sent.
    const bytes = Buffer.byteLength(ctx.querystring, 'latin1');
    if (bytes > MAX_QUERY_STRING_BYTES) throw new UriTooLongError(bytes);
    await next();
  };
}
