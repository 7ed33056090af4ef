// What changes for a client between two states of the served set: the outgoing and the incoming generation of a
// reindex or rollback, or the live index and a source (reindex --plan). Both sides are read as (slug, content
// hash) in byte order of the slug and merged. A generation is read from Elasticsearch a range of slugs at a time,
// so nothing of it is held; what a reindex wrote is noted as it writes it (BuiltEntries, a flat string a document)
// and sorted once. Only the changed slugs are kept (their documents are fetched afterwards, a batch at a time).
import type { Client, estypes } from '@elastic/elasticsearch';
import type { ChangeReason } from '../../indexContract/changeLog.js';
import { compareBytes } from '../sync/reconcile.js';

/** One served PPA as the diff sees it. */
export interface ServedEntry {
  slug: string;
  /**
   * null: a document written before content hashes existed (counted as changed when present on both sides). The
   * hash covers `active`, so a (de)activation is a change like any other; which one it was is told from the
   * documents fetched for the event (generationChange.ts).
   */
  hash: string | null;
}

export type DiffKind = 'added' | 'updated' | 'removed';

export interface DiffEntry {
  slug: string;
  kind: DiffKind;
  /** For an update, `updated` until the documents tell a (de)activation apart (generationChange.ts). */
  reason: ChangeReason;
}

export interface GenerationDiff {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** PPAs served before (the removal guard's base). */
  before: number;
  after: number;
  /** Every changed slug in byte order, with why. */
  entries: DiffEntry[];
}

const ENTRIES_PER_PAGE = 10_000;

/** Why an upsert is logged: the PPA as served before (undefined: not served) and after. */
export function upsertReason(
  before: { active: boolean } | undefined,
  after: { active: boolean },
): ChangeReason {
  if (!before) return 'published';
  if (before.active && !after.active) return 'deactivated';
  if (!before.active && after.active) return 'reactivated';
  return 'updated';
}

/**
 * Merges two sides in byte order of the slug. `unpublished`: slugs the incoming source holds unpublished (a
 * removal of one of them is "unpublished", of any other "deleted").
 */
export async function diffServed(
  before: AsyncIterable<ServedEntry>,
  after: AsyncIterable<ServedEntry>,
  unpublished: ReadonlySet<string> = new Set(),
): Promise<GenerationDiff> {
  const diff: GenerationDiff = {
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    before: 0,
    after: 0,
    entries: [],
  };
  const removal = (slug: string): void => {
    diff.removed++;
    diff.entries.push({ slug, kind: 'removed', reason: unpublished.has(slug) ? 'unpublished' : 'deleted' });
  };
  const afterIterator = after[Symbol.asyncIterator]();
  let next = await afterIterator.next();
  const advance = async (): Promise<void> => {
    diff.after++;
    next = await afterIterator.next();
  };
  try {
    for await (const old of before) {
      diff.before++;
      while (!next.done && compareBytes(next.value.slug, old.slug) < 0) {
        diff.added++;
        diff.entries.push({ slug: next.value.slug, kind: 'added', reason: 'published' });
        await advance();
      }
      if (next.done || next.value.slug !== old.slug) {
        removal(old.slug);
        continue;
      }
      const incoming = next.value;
      if (incoming.hash !== null && incoming.hash === old.hash) diff.unchanged++;
      else {
        diff.updated++;
        diff.entries.push({ slug: old.slug, kind: 'updated', reason: 'updated' });
      }
      await advance();
    }
    while (!next.done) {
      diff.added++;
      diff.entries.push({ slug: next.value.slug, kind: 'added', reason: 'published' });
      await advance();
    }
  } finally {
    await afterIterator.return?.();
  }
  return diff;
}

/**
 * Every document of `index` as (slug, hash), in byte order of the slug: a composite aggregation over doc values (no
 * hits fetched), a page of 10,000 at a time, the next page asked for while this one is merged.
 *
 * `bounds` (ascending slugs) cut the walk into ranges of slugs, each asked for under a `range` query. Without
 * them, every page costs Elasticsearch a visit to every document of the index (a composite aggregation does not
 * skip the documents before its `after` key), so a walk costs pages × documents: 1.4 s for 90k documents (9
 * pages), about 100× that for 900k. With a bound every 10,000 documents each page visits about its own 10,000:
 * 0.35–0.4 s for the same 90k, and growing with the count, not its square.
 */
export async function* servedEntries(
  client: Client,
  index: string,
  {
    bounds = [],
    pageSize = ENTRIES_PER_PAGE,
    hashes = true,
  }: {
    bounds?: readonly string[];
    pageSize?: number;
    /** false: slugs only (hash null), for a walk that compares slugs (sync's reconcile). */
    hashes?: boolean;
  } = {},
): AsyncGenerator<ServedEntry> {
  const ranges = slugRanges(bounds);
  const page = (range: SlugRange, after?: estypes.AggregationsCompositeAggregateKey) =>
    client.search({
      index,
      size: 0,
      track_total_hits: false,
      ...(range.gte !== undefined || range.lt !== undefined ? { query: { range: { slug: range } } } : {}),
      aggs: {
        served: {
          composite: {
            size: pageSize,
            sources: [
              { slug: { terms: { field: 'slug' } } },
              ...(hashes ? [{ hash: { terms: { field: 'content_hash', missing_bucket: true } } }] : []),
            ],
            ...(after ? { after } : {}),
          },
        },
      },
    });
  let current = 0;
  let pending: ReturnType<typeof page> | undefined = page(ranges[0]!);
  while (pending) {
    const range = ranges[current]!;
    const served = (await pending).aggregations?.served as estypes.AggregationsCompositeAggregate | undefined;
    const buckets = (served?.buckets ?? []) as estypes.AggregationsCompositeBucket[];
    const more = Boolean(served?.after_key) && buckets.length === pageSize;
    if (more) pending = page(ranges[current]!, served!.after_key);
    else pending = current + 1 < ranges.length ? page(ranges[++current]!) : undefined;
    // Asked for ahead: if the merge stops early (a failure on the other side), its failure is not unhandled.
    pending?.catch(() => undefined);
    for (const { key } of buckets) {
      // A document with several slugs (written by other means: the indexer writes one) matches every range that
      // holds one of them and gives a bucket for each in each: only the range's own are this range's.
      if (!inRange(String(key.slug), range)) continue;
      yield {
        slug: String(key.slug),
        hash: key.hash === null || key.hash === undefined ? null : String(key.hash),
      };
    }
  }
}

/** The characters of a slug (the record schema's pattern), in byte order: where slugBounds tries cutting. */
const SLUG_CHARACTERS = [...'-0123456789abcdefghijklmnopqrstuvwxyz'];
/** How many characters deep slugBounds looks before it settles for a range larger than asked. */
const MAX_BOUND_DEPTH = 12;

/**
 * Bounds for servedEntries when no build says where the slugs are (a rollback, sync's reconcile): ranges of at most about `per` documents of `index`, found from counts alone. Each step
 * counts the documents under every next character of a prefix (a `filters` aggregation of `range` queries, which
 * read the terms dictionary and postings, not every document's doc values) and looks one character deeper where
 * a range is still larger than `per`; the ranges are then joined in order up to `per`. 900k slugs of the
 * schema's alphabet need about 40 such requests.
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

/** Slugs from `gte` (inclusive) to `lt` (exclusive); a side left out is open. */
interface SlugRange {
  gte?: string;
  lt?: string;
}

function inRange(slug: string, { gte, lt }: SlugRange): boolean {
  return (
    (gte === undefined || compareBytes(slug, gte) >= 0) && (lt === undefined || compareBytes(slug, lt) < 0)
  );
}

/** The ranges between ascending bounds: below the first, between each two, from the last on. */
function slugRanges(bounds: readonly string[]): SlugRange[] {
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

/**
 * Two generations of one alias compared, both walked in step (each walk asks for its next page while the merge
 * consumes this one), cut at `bounds` (from slugBounds, or a build's noted slugs).
 */
export function compareGenerations(
  client: Client,
  outgoing: string,
  incoming: string,
  unpublished: ReadonlySet<string> = new Set(),
  bounds: readonly string[] = [],
): Promise<GenerationDiff> {
  return diffServed(
    servedEntries(client, outgoing, { bounds }),
    servedEntries(client, incoming, { bounds }),
    unpublished,
  );
}

/**
 * The (slug, content hash) of every document a reindex writes, noted as it writes them, so that the comparison
 * with the outgoing generation reads only that one from Elasticsearch (a walk of 90k costs it 0.35–0.4 s, cut
 * at these entries' bounds): the incoming side was known before it was sent. Each is kept as one flat string, "slug<TAB>hash" (about 85 bytes: 7.6 MB for 90k documents, a tenth
 * of what the validation pass holds), and sorted once when the comparison starts.
 */
export class BuiltEntries {
  private readonly keys: string[] = [];
  /** Whether every slug is printable ASCII, as the record schema's pattern makes them (then a plain sort will do). */
  private ascii = true;
  private isSorted = true;

  add(slug: string, hash: string): void {
    const key = `${slug}\t${hash}`;
    // Reading a character makes V8 flatten the concatenation into one string now, instead of keeping the two
    // parts and a link (85 rather than 164 bytes an entry, measured over 900k).
    key.charCodeAt(0);
    this.keys.push(key);
    this.isSorted = false;
    if (this.ascii && !PRINTABLE_ASCII.test(slug)) this.ascii = false;
  }

  get size(): number {
    return this.keys.length;
  }

  /** The entries in byte order of the slug. */
  async *inByteOrder(): AsyncGenerator<ServedEntry> {
    for (const key of this.sorted()) {
      const tab = key.indexOf('\t');
      yield { slug: key.slice(0, tab), hash: key.slice(tab + 1) };
    }
  }

  /**
   * Every `per`-th slug in byte order: where to cut a walk of a generation that holds about the same slugs
   * (servedEntries), so that each range is about a page.
   */
  bounds(per: number = ENTRIES_PER_PAGE): string[] {
    const keys = this.sorted();
    const bounds: string[] = [];
    for (let i = per; i < keys.length; i += per) bounds.push(slugOfKey(keys[i]!));
    return bounds;
  }

  private sorted(): readonly string[] {
    if (this.isSorted) return this.keys;
    // For printable ASCII, code-unit order is byte order, and the tab, below every printable character, puts a
    // slug before the slugs it starts ("a-b" before "a-b-c").
    if (this.ascii) this.keys.sort();
    else this.keys.sort((a, b) => compareBytes(slugOfKey(a), slugOfKey(b)));
    this.isSorted = true;
    return this.keys;
  }
}

const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const slugOfKey = (key: string): string => key.slice(0, key.indexOf('\t'));

/**
 * The outgoing generation (read from Elasticsearch) compared with what the reindex just wrote (noted as it wrote
 * it): the same diff as compareGenerations, for half of Elasticsearch's work.
 */
export function compareWithBuilt(
  client: Client,
  outgoing: string,
  built: BuiltEntries,
  unpublished: ReadonlySet<string> = new Set(),
): Promise<GenerationDiff> {
  return diffServed(
    servedEntries(client, outgoing, { bounds: built.bounds() }),
    built.inByteOrder(),
    unpublished,
  );
}
