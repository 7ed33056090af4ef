// A generation read from Elasticsearch as (slug, content hash) in byte order of the slug, a range of slugs at a
// time (slugRanges.ts), so nothing of it is held: one side of a generation comparison (changes/), and the list of
// an index's slugs for sync's reconcile.
import type { Client, estypes } from '@elastic/elasticsearch';
import { storedHashesCurrent } from '../../indexContract/contentHash.js';
import { derivedHashesOf, sourceHashedEntries } from './derivedHashes.js';
import { readIndexMeta } from './indexMeta.js';
import { ENTRIES_PER_PAGE, inRange, slugBounds, slugRanges, type SlugRange } from './slugRanges.js';

/** One served PPA as a comparison sees it. */
export interface ServedEntry {
  slug: string;
  /**
   * null: unknown, counted as changed when present on both sides (a walk of a generation derives the hash of a
   * document whose stored one it cannot compare: derivedHashes.ts). The hash covers `active`, so a (de)activation
   * is a change like any other; which one it was is told from the documents fetched for the event
   * (changes/generationChange.ts).
   */
  hash: string | null;
}

/**
 * Every document of `index` as (slug, hash), in byte order of the slug, cut at `bounds` (ascending slugs) into
 * ranges, each asked for under a `range` query, so that each page visits about its own documents rather than the
 * whole index (slugRanges.ts says why).
 *
 * The stored hashes are compared as they are when the index's _meta names the current CONTENT_HASH_VERSION: then
 * a composite aggregation reads them from doc values, no hits fetched, and only a document without one has its
 * hash derived from _source. An index an older release built (no version, or another) has every hash derived
 * from its served fields instead (derivedHashes.ts's _source walk), so that a first comparison after an upgrade
 * logs only real changes. That walk fetches and hashes every document's served fields, far more than two
 * keywords a document, which is why it is kept to the generations whose hashes cannot be trusted.
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
  if (hashes && !storedHashesCurrent(await readIndexMeta(client, index))) {
    yield* sourceHashedEntries(client, index, { bounds, pageSize });
    return;
  }
  yield* compositeEntries(client, index, { bounds, pageSize, hashes });
}

/**
 * The composite walk: a page of (slug, stored hash) buckets at a time, the next page asked for while this one is
 * merged; with `hashes`, a document without a stored hash gets the one derived from its _source.
 */
async function* compositeEntries(
  client: Client,
  index: string,
  { bounds, pageSize, hashes }: { bounds: readonly string[]; pageSize: number; hashes: boolean },
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
    // A document with several slugs (written by other means: the indexer writes one) matches every range that
    // holds one of them and gives a bucket for each in each: only the range's own are this range's.
    const entries = buckets
      .filter(({ key }) => inRange(String(key.slug), range))
      .map(({ key }) => ({
        slug: String(key.slug),
        hash: key.hash === null || key.hash === undefined ? null : String(key.hash),
      }));
    const unhashed = hashes ? entries.filter(({ hash }) => hash === null).map(({ slug }) => slug) : [];
    if (unhashed.length > 0) {
      const derived = await derivedHashesOf(client, index, unhashed);
      for (const entry of entries) if (entry.hash === null) entry.hash = derived.get(entry.slug) ?? null;
    }
    yield* entries;
  }
}

/**
 * Every slug of the index, ascending in byte order, in ranges of about `per` that slugBounds finds from counts
 * (sync's reconcile: nothing noted says where the slugs are).
 */
export async function* indexedSlugs(client: Client, index: string, per: number): AsyncGenerator<string> {
  const bounds = await slugBounds(client, index, per);
  for await (const { slug } of servedEntries(client, index, { bounds, pageSize: per, hashes: false }))
    yield slug;
}
