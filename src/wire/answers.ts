// The one way a route answers with JSON: `answer(ctx, key, compute)`. With a response cache and a known
// generation, a request already answered is sent from the cache (no search, no JSON, no hashing, no compression);
// otherwise `compute` runs, its body is serialized and tagged once, kept in the form this client takes, and sent.
// The route says what its answer is and its cache key; everything about the wire happens here.
import type { Context } from 'koa';
import { acceptedEncoding } from './encoding.js';
import { jsonRepresentation, keptAs, send, type Representation } from './representation.js';
import type { ResponseCache } from './responseCache.js';

export interface Answer {
  body: object;
  link?: string;
  /** How many results the answer found (a search's total): the representation carries it, cached or not. */
  found?: number;
  /** Sent but not kept: an answer that would be other a moment later (an empty one before "did you mean" can be). */
  unkept?: true;
}

/** Where a request's answer is kept: its route, and its parameters in a normalized form. */
export interface AnswerKey {
  route: string;
  normalized: string;
}

/** A body computed per request, or a representation made once (the OpenAPI document). */
export type Compute = () => Promise<Answer | Representation> | Answer | Representation;

/** Sends the answer and gives back the representation sent (from the cache or computed). */
export type AnswerFn = (ctx: Context, key: AnswerKey, compute: Compute) => Promise<Representation>;

export function answers({
  cache,
  maxAgeSeconds,
}: {
  cache?: ResponseCache;
  maxAgeSeconds: number;
}): AnswerFn {
  const cacheControl = `public, max-age=${maxAgeSeconds}`;
  return async (ctx, { route, normalized }, compute) => {
    const key = cache?.keyOf(route, normalized);
    const hit = key === undefined ? undefined : cache!.get(key);
    if (hit) {
      send(ctx, hit, { cacheControl, onGrow: () => cache!.set(key!, hit) });
      cache!.rememberUrl(ctx.url, key!);
      return hit;
    }
    const computed = await compute();
    const representation = 'etag' in computed ? computed : answerRepresentation(computed);
    if (key === undefined || ('unkept' in computed && computed.unkept)) {
      send(ctx, representation, { cacheControl });
      return representation;
    }
    const kept = keptAs(representation, acceptedEncoding(ctx, representation.size, representation.type));
    cache!.set(key, kept);
    cache!.rememberUrl(ctx.url, key);
    send(ctx, kept, { cacheControl, onGrow: () => cache!.set(key, kept) });
    return kept;
  };
}

function answerRepresentation({ body, link, found }: Answer): Representation {
  const representation = jsonRepresentation(body, link);
  return found === undefined ? representation : { ...representation, found };
}
