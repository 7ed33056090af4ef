// Compression of what the representation layer (src/wire/) does not send itself: streamed exports (CSV, NDJSON)
// and problem+json bodies, br or gzip as the client accepts (koa-compress negotiates; Vary: Accept-Encoding), at
// the same levels and threshold as the representations.
import compress from 'koa-compress';
import type { Middleware } from 'koa';
import { BROTLI, COMPRESSION_THRESHOLD_BYTES, GZIP, isCompressible } from '../wire/encoding.js';

export function compression(): Middleware {
  return compress({
    filter: isCompressible,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    br: BROTLI,
    gzip: GZIP,
    deflate: false,
  });
}
