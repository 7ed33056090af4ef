// Values kept across answers in plain Maps, each emptied whole when it reaches its bound (a registry's vocabulary
// is far smaller, so in practice never). Not lru-cache: its bookkeeping on every read (the recency lists) touched
// memory that Elasticsearch's work between two answers had evicted from the processor's caches, and the plain Maps
// measured faster inside the API (docs/performance.md, "Highlights").

/** The value kept under `key`, made and kept first if there is none (the memo emptied first if full). */
export function remembered<T>(memo: Map<string, T>, max: number, key: string, make: (key: string) => T): T {
  let value = memo.get(key);
  if (value === undefined) {
    if (memo.size >= max) memo.clear();
    value = make(key);
    memo.set(key, value);
  }
  return value;
}
