// The response cache: finished answers (serialized body and/or its br/gzip bytes, ETag, Link header)
// in an in-process LRU bounded in bytes (lru-cache), keyed by the generation serving them (concrete index and
// data version) plus the normalized request. A reindex swaps the alias to a new concrete index, and a sync that
// changed documents moves the index's data version on: either way keys name the generation, so entries of the
// old one can no longer be reached, and they are dropped as soon as the change is seen.
import { LRUCache } from 'lru-cache';
import { GenerationWatcher } from './generationWatcher.js';

/** An encoding a cached body may also be kept in. */
export type CachedEncoding = 'br' | 'gzip';

export interface CachedAnswer {
  /** Bytes of the serialized JSON body (what decides whether it is sent compressed at all). */
  size: number;
  /**
   * The serialized JSON body, once an identity response has needed it. An answer first sent compressed is kept
   * compressed only: a fifth of the bytes, so five times the entries in the same bound, and far less memory for
   * the garbage collector to turn over when most answers are never asked again (the no-repeat mix: holding the
   * identity bytes too cost about 0.2 ms of API CPU per answer).
   */
  body?: Buffer;
  /** The strong entity tag of the body. */
  etag: string;
  /** The Link header, when the answer has one. */
  link?: string;
  /** The body compressed, each encoding made once when first asked for. */
  encoded: Partial<Record<CachedEncoding, Buffer>>;
}

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  /** Bytes held (bodies, their encodings, keys and a fixed overhead per entry), never above maxBytes. */
  bytes: number;
  entries: number;
  maxBytes: number;
}

/** Bookkeeping per entry beyond its buffers (the object, the map slot): counted so tiny entries are not free. */
const ENTRY_OVERHEAD_BYTES = 256;

export interface ResponseCacheOptions {
  maxBytes: number;
  /** The concrete index behind the alias, or null when unknown (then nothing is cached or served from cache). */
  generation: GenerationWatcher;
}

export class ResponseCache {
  readonly maxBytes: number;
  private readonly lru: LRUCache<string, CachedAnswer>;
  private readonly generation: GenerationWatcher;
  private hits = 0;
  private misses = 0;

  constructor({ maxBytes, generation }: ResponseCacheOptions) {
    this.maxBytes = maxBytes;
    this.generation = generation;
    this.lru = new LRUCache<string, CachedAnswer>({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => answerBytes(answer) + key.length * 2,
    });
    // A swap: every entry of the old generation is unreachable; free their memory at once.
    generation.onChange(() => this.lru.clear());
  }

  /**
   * The key of a request (route and its normalized parameters, e.g. a canonical query string) in the current
   * generation; undefined when the generation is not known for sure (caching is then off).
   */
  keyOf(route: string, normalized: string): string | undefined {
    const generation = this.generation.current();
    if (generation === null) return undefined;
    return `${generation}\u0000${route}\u0000${normalized}`;
  }

  get(key: string): CachedAnswer | undefined {
    const answer = this.lru.get(key);
    if (answer) this.hits += 1;
    else this.misses += 1;
    return answer;
  }

  /** Stores (or re-stores, after an encoding was added: its size is counted again). Too large: not kept. */
  set(key: string, answer: CachedAnswer): void {
    if (!this.keyStillCurrent(key)) return;
    this.lru.set(key, answer);
  }

  stats(): ResponseCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      bytes: this.lru.calculatedSize,
      entries: this.lru.size,
      maxBytes: this.maxBytes,
    };
  }

  close(): void {
    this.generation.close();
    this.lru.clear();
  }

  /** An answer computed while the generation changed is not stored: it could only take room. */
  private keyStillCurrent(key: string): boolean {
    const generation = this.generation.current();
    return generation !== null && key.startsWith(`${generation}\u0000`);
  }
}

export function answerBytes(answer: CachedAnswer): number {
  let bytes =
    ENTRY_OVERHEAD_BYTES + (answer.body?.length ?? 0) + answer.etag.length + (answer.link?.length ?? 0) * 2;
  for (const encoded of Object.values(answer.encoded)) bytes += encoded.length;
  return bytes;
}

/**
 * The cache an instance runs with, watching the alias through `liveGeneration`; undefined when `maxBytes` is 0.
 * Its owner closes it (that stops the alias lookups).
 */
export function createResponseCache(options: {
  maxBytes: number;
  liveGeneration: () => Promise<string | null>;
}): ResponseCache | undefined {
  if (options.maxBytes <= 0) return undefined;
  return new ResponseCache({
    maxBytes: options.maxBytes,
    generation: new GenerationWatcher({ liveGeneration: options.liveGeneration }),
  });
}
