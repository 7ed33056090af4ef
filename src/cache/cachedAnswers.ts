// Serving from the response cache. A route looks its request up (lookUpAnswer) once its parameters are parsed
// (a bad request is refused before any lookup) and returns at once on a hit; this middleware, outside
// conditionalGet, then sends the stored bytes: no search, no JSON, no hashing and no compression. On a miss it
// stores what conditionalGet serialized in the form this client takes (compressed once here when it accepts an
// encoding, so the compression middleware has nothing left to do); another form is made from it when first asked.
import type { Context, Middleware } from 'koa';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptedEncoding, encodeBody } from '../http/compression.js';
import { ifNoneMatchMatches } from '../http/conditionalGet.js';
import type { CachedAnswer, ResponseCache } from './responseCache.js';

interface CacheSlot {
  key: string;
  hit?: CachedAnswer;
}

const SLOT = 'responseCache';

/**
 * Looks the request up: true when the cache holds its answer (the route is done), false when the route must
 * answer it (and the answer is then stored under `route` + `normalized`). No cache, or no known generation:
 * false, and nothing is stored.
 */
export function lookUpAnswer(
  ctx: Context,
  cache: ResponseCache | undefined,
  route: string,
  normalized: string,
): boolean {
  const key = cache?.keyOf(route, normalized);
  if (!cache || key === undefined) return false;
  const hit = cache.get(key);
  (ctx.state as Record<string, CacheSlot>)[SLOT] = hit ? { key, hit } : { key };
  return hit !== undefined;
}

export function cachedAnswers(
  cache: ResponseCache,
  { maxAgeSeconds }: { maxAgeSeconds: number },
): Middleware {
  const cacheControl = `public, max-age=${maxAgeSeconds}`;
  return async (ctx, next) => {
    await next();
    const slot = (ctx.state as Record<string, CacheSlot | undefined>)[SLOT];
    if (!slot) return;
    if (slot.hit) {
      send(ctx, cache, slot.key, slot.hit, cacheControl);
      return;
    }
    // A miss: conditionalGet has serialized a 200 JSON body and tagged it.
    const etag = ctx.response.get('ETag');
    if (ctx.status !== 200 || typeof ctx.body !== 'string' || !etag) return;
    const link = ctx.response.get('Link');
    const size = ctx.response.length ?? Buffer.byteLength(ctx.body);
    const answer: CachedAnswer = { size, etag, encoded: {} };
    if (link) answer.link = link;
    // Kept in the one form this client takes (compressed when it accepts it); another form is made when asked.
    const encoding = acceptedEncoding(ctx, size);
    if (encoding) answer.encoded[encoding] = encodeBody(encoding, ctx.body);
    else answer.body = Buffer.from(ctx.body);
    cache.set(slot.key, answer);
    send(ctx, cache, slot.key, answer, cacheControl);
  };
}

/** The identity body: kept, or decoded once from an encoding the entry holds (and then kept too). */
function identityBody(cache: ResponseCache, key: string, answer: CachedAnswer): Buffer {
  if (answer.body) return answer.body;
  const { gzip, br } = answer.encoded;
  answer.body = gzip ? gunzipSync(gzip) : brotliDecompressSync(br!);
  cache.set(key, answer); // counted again with its new bytes
  return answer.body;
}

function send(ctx: Context, cache: ResponseCache, key: string, answer: CachedAnswer, cacheControl: string) {
  ctx.status = 200;
  ctx.set('ETag', answer.etag);
  ctx.set('Cache-Control', cacheControl);
  if (answer.link) ctx.set('Link', answer.link);
  ctx.type = 'application/json';
  if (ifNoneMatchMatches(ctx.get('If-None-Match'), answer.etag)) {
    ctx.status = 304;
    return;
  }
  const encoding = acceptedEncoding(ctx, answer.size);
  if (!encoding) {
    ctx.body = identityBody(cache, key, answer);
    return;
  }
  let encoded = answer.encoded[encoding];
  if (!encoded) {
    encoded = encodeBody(encoding, identityBody(cache, key, answer));
    answer.encoded[encoding] = encoded;
    cache.set(key, answer); // counted again with its new bytes
  }
  ctx.body = encoded;
  ctx.set('Content-Encoding', encoding);
  ctx.vary('Accept-Encoding');
}
