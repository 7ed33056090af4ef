// Content codings: which one a client takes (br before gzip at equal weight, none below 1 KB or for a type that
// does not compress), and the bytes in it, at the fastest levels.
import compressible from 'compressible';
import type { Context } from 'koa';
import Negotiator from 'negotiator';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Below this many bytes a body is sent uncompressed (not worth the CPU). */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * The fastest levels: compression was the largest share of the API's own CPU under load (a CPU profile:
 * `npm run bench -- scale --profile`). On JSON bodies the lowest levels compress nearly as well in a fraction of the
 * time (docs/performance.md); nginx compresses at level 1 by default for the same reason.
 */
export const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };
export const GZIP = { level: 1 };

/** The encodings offered, best first. */
const ENCODINGS: Encoding[] = ['br', 'gzip'];

// mime-db does not list NDJSON; it is JSON text like the rest.
export const isCompressible = (type: string): boolean =>
  /^application\/x-ndjson\b/.test(type) || compressible(type) === true;

/** negotiator 1.x takes the server's preference for equal client weights; its types predate that option. */
type PreferringNegotiator = {
  encoding(available: string[], options: { preferred: string[] }): string | undefined;
};

/** The encoding to send `size` bytes of `type` in, as koa-compress would choose it; undefined for identity. */
export function acceptedEncoding(
  ctx: Context,
  size: number,
  type = 'application/json',
): Encoding | undefined {
  if (size < COMPRESSION_THRESHOLD_BYTES || !ctx.get('Accept-Encoding') || !isCompressible(type))
    return undefined;
  const negotiator = new Negotiator(ctx.request) as unknown as PreferringNegotiator;
  const encoding = negotiator.encoding([...ENCODINGS, 'identity'], { preferred: ENCODINGS });
  return encoding === 'br' || encoding === 'gzip' ? encoding : undefined;
}

/** The body in `encoding` (the same bytes as koa-compress would stream with these settings). */
export function encodeBody(encoding: Encoding, body: Buffer | string): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP);
}

export function decodeBody(encoding: Encoding, body: Buffer): Buffer {
  return encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body);
}
