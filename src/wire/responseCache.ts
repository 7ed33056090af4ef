// The response cache: finished answers (representations: serialized body and/or its br/gzip bytes, ETag, Link)
// in an in-process LRU bounded in bytes (lru-cache), keyed by the generation serving them (concrete index and
// data version) plus the normalized request. A reindex swaps the alias to a new concrete index, and a sync that
// changed documents moves the index's data version on: either way keys name the generation, so entries of the
// old one can no longer be reached, and they are dropped as soon as the change is seen.
import { LRUCache } from 'lru-cache';
import type { Representation } from './representation.js';

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  /** Bytes held (bodies, their encodings, keys and a fixed overhead per entry), never above maxBytes. */
  bytes: number;
  entries: number;
  maxBytes: number;
}

/**
 * Bytes of URLs and keys remembered for the front door (counted as UTF-16, as the response cache counts its keys):
 * bounded apart from RESPONSE_CACHE_MB, so that many long distinct URLs cannot grow it; a URL forgotten only costs
 * its request the normal path.
 */
const URL_MEMO_BYTES = 4 * 1024 * 1024;

/** Bookkeeping per entry beyond its buffers (the object, the map slot): counted so tiny entries are not free. */
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * The generation an answer comes from (the live state's GenerationWatcher): the concrete index behind the alias, or
 * null while unknown; told when it changes.
 */
export interface Generation {
  current(): string | null;
  onChange(listener: (index: string | null) => void): void;
}

export interface ResponseCacheOptions {
  maxBytes: number;
  /** The concrete index behind the alias, or null when unknown (then nothing is cached or served from cache). */
  generation: Generation;
}

export class ResponseCache {
  readonly maxBytes: number;
  private readonly lru: LRUCache<string, Representation>;
  private readonly generation: Generation;
  /** The key each recently answered URL was kept under: the front door's look-up, without parsing the URL. */
  private readonly urls = new LRUCache<string, string>({
    maxSize: URL_MEMO_BYTES,
    sizeCalculation: (key, url) => (url.length + key.length) * 2,
  });
  private hits = 0;
  private misses = 0;

  constructor({ maxBytes, generation }: ResponseCacheOptions) {
    this.maxBytes = maxBytes;
    this.generation = generation;
    this.lru = new LRUCache<string, Representation>({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => answerBytes(answer) + key.length * 2,
    });
    // A swap: every entry of the old generation is unreachable; free their memory at once.
    generation.onChange(() => {
      this.lru.clear();
      this.urls.clear();
    });
  }

  /** Called when the generation answers are keyed by moves (a swap, a rollback, a sync's change). */
  /**
   * The key of a request (route and its normalized parameters, e.g. a canonical query string) in the current
   * generation; undefined when the generation is not known for sure (caching is then off).
   */
  keyOf(route: string, normalized: string): string | undefined {
    const generation = this.generation.current();
    if (generation === null) return undefined;
    return `${generation}\u0000${route}\u0000${normalized}`;
  }

  get(key: string): Representation | undefined {
    const answer = this.lru.get(key);
    if (answer) this.hits += 1;
    else this.misses += 1;
    return answer;
  }

  /** Stores (or re-stores, after an encoding was added: its size is counted again). Too large: not kept. */
  set(key: string, answer: Representation): void {
    if (!this.keyStillCurrent(key)) return;
    this.lru.set(key, answer);
  }

  /** Notes that the request for `url` (path and query, as sent) was answered with what is kept under `key`. */
  rememberUrl(url: string, key: string): void {
    this.urls.set(url, key);
  }

  /**
   * Whether the answer to `url` is held, by a URL answered before in this generation (the same request written
   * another way is not known here: the app finds it by its normalized key).
   */
  holdsAnswerTo(url: string): boolean {
    const key = this.urls.get(url);
    return key !== undefined && this.lru.has(key);
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

  /** Drops every entry (the generation is watched by its owner, src/liveState/). */
  close(): void {
    this.lru.clear();
    this.urls.clear();
  }

  /** An answer computed while the generation changed is not stored: it could only take room. */
  private keyStillCurrent(key: string): boolean {
    const generation = this.generation.current();
    return generation !== null && key.startsWith(`${generation}\u0000`);
  }
}

export function answerBytes(answer: Representation): number {
  let bytes =
    ENTRY_OVERHEAD_BYTES +
    (answer.body?.length ?? 0) +
    answer.etag.length +
    ((answer.link?.length ?? 0) + answer.type.length) * 2;
  for (const encoded of Object.values(answer.encoded)) bytes += encoded.length;
  return bytes;
}

/** The cache an instance runs with, keyed on the live state's generation; undefined when `maxBytes` is 0. */
export function createResponseCache(options: {
  maxBytes: number;
  generation: () => Generation;
}): ResponseCache | undefined {
  if (options.maxBytes <= 0) return undefined;
  return new ResponseCache({ maxBytes: options.maxBytes, generation: options.generation() });
}
