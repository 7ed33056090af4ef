// Content hashes derived from _source (indexContract/contentHash.ts's servedContentHash), for the documents whose
// stored hash cannot be compared: every document of a generation an older release built (no content_hash, or one
// of another definition: its _meta names no current CONTENT_HASH_VERSION), or one document written without a
// hash into a current generation. servedEntries.ts decides which; this reads the documents.
import type { Client, estypes } from '@elastic/elasticsearch';
import { servedContentHash } from '../../indexContract/contentHash.js';
import { DETAIL_SOURCE_FIELDS, type DetailSource } from '../../indexContract/sourceFields.js';
import { inRange, slugRanges, type SlugRange } from './slugRanges.js';

/**
 * Documents a page of a _source walk: each hit carries the served fields (a few kilobytes), where a composite
 * bucket carries two keywords, so a page holds fewer of them than a composite page holds buckets.
 */
export const SOURCES_PER_PAGE = 1_000;

/**
 * Every document of `index` as (slug, hash derived from its served fields), in byte order of the slug, cut into
 * the same ranges as the composite walk (servedEntries.ts), a page at a time sorted by slug (`search_after`), the
 * next page asked for while this one is merged. A keyword sorts by its UTF-8 bytes, the order the merge
 * (changes/generationDiff.ts) expects. A document with several slugs (written by other means: the indexer writes
 * one) sorts by its lowest and is given once, under it.
 */
export async function* sourceHashedEntries(
  client: Client,
  index: string,
  { bounds = [], pageSize = SOURCES_PER_PAGE }: { bounds?: readonly string[]; pageSize?: number } = {},
): AsyncGenerator<{ slug: string; hash: string }> {
  const size = Math.min(pageSize, SOURCES_PER_PAGE);
  const ranges = slugRanges(bounds);
  const page = (range: SlugRange, after?: estypes.SortResults) =>
    client.search<Partial<DetailSource>>({
      index,
      size,
      track_total_hits: false,
      _source: [...DETAIL_SOURCE_FIELDS],
      ...(range.gte !== undefined || range.lt !== undefined ? { query: { range: { slug: range } } } : {}),
      sort: [{ slug: { order: 'asc' } }],
      ...(after ? { search_after: after } : {}),
    });
  let current = 0;
  let pending: ReturnType<typeof page> | undefined = page(ranges[0]!);
  while (pending) {
    const range = ranges[current]!;
    const hits = (await pending).hits.hits;
    const last = hits.at(-1)?.sort;
    if (last && hits.length === size) pending = page(range, last);
    else pending = current + 1 < ranges.length ? page(ranges[++current]!) : undefined;
    // Asked for ahead: if the merge stops early (a failure on the other side), its failure is not unhandled.
    pending?.catch(() => undefined);
    for (const hit of hits) {
      const slug = hit.sort?.[0];
      // No slug (sorted last, as the composite walk leaves it out) or a slug of another range (a lowest slug).
      if (typeof slug !== 'string' || !inRange(slug, range)) continue;
      yield { slug, hash: servedContentHash(hit._source ?? {}) };
    }
  }
}

/** Slugs asked for at a time by derivedHashesOf. */
const SLUGS_PER_LOOKUP = 500;

/** The hashes derived from _source of the documents of `slugs` in `index` (a slug found in none is left out). */
export async function derivedHashesOf(
  client: Client,
  index: string,
  slugs: readonly string[],
): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (let start = 0; start < slugs.length; start += SLUGS_PER_LOOKUP) {
    const wanted = slugs.slice(start, start + SLUGS_PER_LOOKUP);
    const response = await client.search<Partial<DetailSource>>({
      index,
      size: wanted.length,
      track_total_hits: false,
      _source: [...DETAIL_SOURCE_FIELDS],
      query: { terms: { slug: wanted } },
    });
    for (const hit of response.hits.hits) {
      const source = hit._source ?? {};
      const hash = servedContentHash(source);
      for (const slug of [source.slug ?? []].flat()) if (typeof slug === 'string') hashes.set(slug, hash);
    }
  }
  return hashes;
}
