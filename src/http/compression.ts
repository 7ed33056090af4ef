// Response compression: br or gzip, as the client accepts (koa-compress negotiates; Vary: Accept-Encoding), for
// JSON, problem+json, CSV, NDJSON and the pages' assets; bodies under 1 KB go as they are (not worth the CPU).
import compressible from 'compressible';
import compress from 'koa-compress';
import type { Context, Middleware } from 'koa';
import Negotiator from 'negotiator';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Below this many bytes a body is sent uncompressed. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

// mime-db does not list NDJSON; it is JSON text like the rest.
const isCompressible = (type: string) => /^application\/x-ndjson\b/.test(type) || compressible(type) === true;

/**
 * The fastest levels: compression was the largest share of the API's own CPU under load (bench/perf/
 * cpuProfileRun.ts). A 58 KB JSON body: gzip 1 → 12.4 KB in a third of gzip 6's time (9.8 KB), br 1 → 11.8 KB
 * in half of br 4's (9.9 KB); nginx compresses at level 1 by default for the same reason.
 */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };
const GZIP = { level: 1 };

/** The encodings offered, best first (koa-compress's order among those it is given). */
const ENCODINGS = ['br', 'gzip'];

export function compression(): Middleware {
  return compress({
    filter: isCompressible,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    br: BROTLI,
    gzip: GZIP,
    deflate: false,
  });
}

/** An encoding's suffix on an entity tag: `"abc"` sent gzip-encoded is `"abc-gzip"`. */
const ENCODED_TAG = /-(?:br|gzip|zstd)"$/;

/** negotiator 1.x takes the server's preference for equal client weights; its types predate that option. */
type PreferringNegotiator = {
  encoding(available: string[], options: { preferred: string[] }): string | undefined;
};

/**
 * The encoding to send a compressible body of `size` bytes in, as koa-compress would choose it (br before gzip
 * at equal weight; no Accept-Encoding: none); undefined for identity.
 */
export function acceptedEncoding(ctx: Context, size: number): 'br' | 'gzip' | undefined {
  if (size < COMPRESSION_THRESHOLD_BYTES || !ctx.get('Accept-Encoding')) return undefined;
  const negotiator = new Negotiator(ctx.request) as unknown as PreferringNegotiator;
  const encoding = negotiator.encoding([...ENCODINGS, 'identity'], { preferred: ENCODINGS });
  return encoding === 'br' || encoding === 'gzip' ? encoding : undefined;
}

/** The body in `encoding`, with the settings the middleware uses (same bytes as a streamed compression). */
export function encodeBody(encoding: 'br' | 'gzip', body: Buffer | string): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP);
}

/** The encoding a GET of this answer is (or would be) sent with: what koa-compress negotiates. */
function negotiated(ctx: Context): string | undefined {
  const sent = ctx.response.get('Content-Encoding');
  if (sent) return sent;
  // A HEAD (koa-compress leaves it alone): the encoding its GET would have had.
  if (ctx.method !== 'HEAD' || ctx.body == null || !isCompressible(ctx.response.type)) return undefined;
  const size = ctx.response.length;
  if (size !== undefined && size < COMPRESSION_THRESHOLD_BYTES) return undefined;
  const negotiator = new Negotiator(ctx.request) as unknown as PreferringNegotiator;
  const encoding = negotiator.encoding([...ENCODINGS, 'identity'], { preferred: ENCODINGS });
  return encoding && encoding !== 'identity' ? encoding : undefined;
}

/**
 * A compressed body is another representation than the uncompressed one, so it gets its own strong ETag (the
 * encoding appended); a HEAD and a 304 carry the headers of the GET and 200 they stand for. Goes outside the
 * compression middleware: it sees the Content-Encoding that was chosen.
 */
export function entityTagPerEncoding(): Middleware {
  return async (ctx, next) => {
    await next();
    const etag = ctx.response.get('ETag');
    if (!etag || ENCODED_TAG.test(etag) || ctx.status >= 400) return;
    if (ctx.status === 304) {
      // The tag the client named, if it is this one in an encoding: the 304 repeats that representation's tag.
      const named = ctx
        .get('If-None-Match')
        .split(',')
        .map((tag) => tag.trim().replace(/^W\//, ''));
      const encoded = named.find((tag) => ENCODED_TAG.test(tag) && withoutEncoding(tag) === etag);
      if (encoded) ctx.set('ETag', encoded);
      return;
    }
    // Set by the response cache, which sends bytes it already holds (for a HEAD too: their length is right).
    const encodedAlready = Boolean(ctx.response.get('Content-Encoding'));
    const encoding = negotiated(ctx);
    if (!encoding) return;
    ctx.set('ETag', etag.replace(/"$/, `-${encoding}"`));
    if (ctx.method === 'HEAD' && !encodedAlready) {
      ctx.set('Content-Encoding', encoding);
      ctx.vary('Accept-Encoding');
      // The length of the encoded body, as a GET would send it (Koa would give the identity length).
      const body =
        typeof ctx.body === 'string' || Buffer.isBuffer(ctx.body) ? ctx.body : JSON.stringify(ctx.body);
      ctx.length = encodeBody(encoding === 'br' ? 'br' : 'gzip', body).length;
    }
  };
}

/** The tag without an encoding suffix (If-None-Match compares representations weakly, RFC 9110 §13.1.2). */
export function withoutEncoding(tag: string): string {
  return tag.replace(ENCODED_TAG, '"');
}
