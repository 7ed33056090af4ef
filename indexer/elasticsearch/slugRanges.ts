// Ranges of slugs, for walking an index a range at a time (servedEntries.ts). A composite aggregation does not
// skip the documents before its `after` key, so an unbounded walk makes every page visit every document and grows
// with the square of the index; a walk cut into ranges of about a page visits each document about once
// (docs/performance.md, "The comparison"). The bounds come from what a reindex noted (changes/builtEntries.ts) or,
// where nothing was noted, from counts alone (slugBounds).
import type { Client, estypes } from '@elastic/elasticsearch';
import { compareBytes } from '../slugOrder.js';

/** Entries a page of a walk, and so about how many a range holds. */
export const ENTRIES_PER_PAGE = 10_000;

/** Slugs from `gte` (inclusive) to `lt` (exclusive); a side left out is open. */
export interface SlugRange {
  gte?: string;
  lt?: string;
}

export function inRange(slug: string, { gte, lt }: SlugRange): boolean {
  return (
    (gte === undefined || compareBytes(slug, gte) >= 0) && (lt === undefined || compareBytes(slug, lt) < 0)
  );
}

/** The ranges between ascending bounds: below the first, between each two, from the last on. */
export function slugRanges(bounds: readonly string[]): SlugRange[] {
  const ranges: SlugRange[] = [];
  let from: string | undefined;
  for (const bound of bounds) {
    if (from !== undefined && compareBytes(bound, from) <= 0) continue; // not ascending: no empty range
    ranges.push({ ...(from !== undefined ? { gte: from } : {}), lt: bound });
    from = bound;
  }
  ranges.push(from !== undefined ? { gte: from } : {});
  return ranges;
}

/** The characters of a slug (the record schema's pattern), in byte order: where slugBounds tries cutting. */
const SLUG_CHARACTERS = [...'-0123456789abcdefghijklmnopqrstuvwxyz'];
/** How many characters deep slugBounds looks before it settles for a range larger than asked. */
const MAX_BOUND_DEPTH = 12;

/**
 * Bounds for servedEntries when no build says where the slugs are (a rollback, sync's reconcile): ranges of at
 * most about `per` documents of `index`, found from counts alone. Each step counts the documents under every next
 * character of a prefix (a `filters` aggregation of `range` queries, which read the terms dictionary and
 * postings, not every document's doc values) and looks one character deeper where a range is still larger than
 * `per`; the ranges are then joined in order up to `per`. A slug of the schema's alphabet takes a few requests per
 * character of depth, so a large index needs tens of requests, not one per page.
 */
export async function slugBounds(
  client: Client,
  index: string,
  per: number = ENTRIES_PER_PAGE,
): Promise<string[]> {
  // Ranges in byte order with their counts. One that holds more than `per` is cut one character deeper, unless
  // it is the part before a prefix's first cut (the prefix itself and what sorts below the alphabet).
  type Counted = { range: SlugRange; count: number; prefix: string; cuttable: boolean };
  const tooLarge = ({ count, cuttable }: Counted) => cuttable && count > per;
  let ranges: Counted[] = [{ range: {}, count: Infinity, prefix: '', cuttable: true }];
  for (let depth = 0; depth < MAX_BOUND_DEPTH && ranges.some(tooLarge); depth++) {
    const refined: Counted[] = [];
    for (const entry of ranges) {
      const cuts = tooLarge(entry) ? cutsInside(entry.range, entry.prefix) : [];
      if (cuts.length === 0) {
        refined.push(entry);
        continue;
      }
      const parts = between(entry.range, cuts);
      const response = await client.search({
        index,
        size: 0,
        track_total_hits: false,
        aggs: { parts: { filters: { filters: parts.map((range) => ({ range: { slug: range } })) } } },
      });
      const buckets = (response.aggregations?.parts as estypes.AggregationsFiltersAggregate | undefined)
        ?.buckets as estypes.AggregationsFiltersBucket[] | undefined;
      parts.forEach((range, i) => {
        const count = buckets?.[i]?.doc_count ?? 0;
        if (count > 0) refined.push({ range, count, prefix: range.gte ?? '', cuttable: i > 0 });
      });
    }
    ranges = refined;
  }
  const bounds: string[] = [];
  let held = 0;
  for (const { range, count } of ranges) {
    if (held > 0 && held + count > per && range.gte !== undefined) {
      bounds.push(range.gte);
      held = 0;
    }
    held += count;
  }
  return bounds;
}

/** prefix + each slug character, those strictly inside the range (so every part between them is non-empty). */
function cutsInside(range: SlugRange, prefix: string): string[] {
  return SLUG_CHARACTERS.map((character) => prefix + character).filter(
    (cut) =>
      (range.gte === undefined || compareBytes(cut, range.gte) > 0) &&
      (range.lt === undefined || compareBytes(cut, range.lt) < 0),
  );
}

/** The range cut at ascending `cuts` inside it. */
function between(range: SlugRange, cuts: readonly string[]): SlugRange[] {
  const edges = [range.gte, ...cuts, range.lt];
  return edges.slice(0, -1).map((gte, i) => {
    const lt = edges[i + 1];
    return { ...(gte !== undefined ? { gte } : {}), ...(lt !== undefined ? { lt } : {}) };
  });
}
