// A roll-up's aggregations (statistics?group_by=…), exact whatever the number of groups. The groups of the first
// dimension are first asked as one terms aggregation of every key (GROUP_TERMS_SIZE per shard and in all): one pass
// over the matches, and exact when Elasticsearch says it left nothing out (no other documents, no count error);
// past that many keys they are a composite aggregation walked to the end, a page a pass. A pivot adds the pairs of
// both dimensions as a composite walk (a PPA with several values of the second dimension counts once in its group,
// which the pairs alone could not say). Each bucket carries its figures; the API merges spellings, sorts and cuts
// (src/present/groups.ts).
import type { estypes } from '@elastic/elasticsearch';
import { isNumeric } from '../../indexContract/dimensions.js';
import { GROUP_DIMENSIONS, type DimensionName, type GroupQuery } from '../params/groupBy.js';
import { FISCAL_SUMS } from './statisticsSearch.js';

type Aggregation = estypes.AggregationsAggregationContainer;

/** Buckets a page of a walk holds: far below search.max_buckets (65,536), few pages even at 100k records. */
export const GROUP_PAGE_SIZE = 10_000;
/**
 * Keys the one-pass terms aggregation of the groups holds, on each shard and in all: with a pivot's first page of
 * pairs and the topics' buckets, within search.max_buckets (65,536; a bucket's sums and filter are not counted).
 */
export const GROUP_TERMS_SIZE = 50_000;
/** What the terms aggregation counts the PPAs without a value under (null): no real value is blank or negative. */
const MISSING_KEYWORD = '';
const MISSING_NUMBER = -1;

/** The walks of a roll-up, by aggregation name: the first dimension's groups and, for a pivot, the pairs. */
export const GROUPS_AGGREGATION = 'roll_up_groups';
export const PAIRS_AGGREGATION = 'roll_up_pairs';
export type WalkName = typeof GROUPS_AGGREGATION | typeof PAIRS_AGGREGATION;

/** A composite bucket's key: one value per dimension (null: the PPA has none), by source name d0, d1. */
export type CompositeKey = Record<string, string | number | null>;

/** The figures of one bucket: the same sums and counts as the statistics' totals and fiscal exposure. */
export const GROUP_METRICS = {
  capacity_mw: { sum: { field: 'capacity_mw' } },
  ...FISCAL_SUMS,
} satisfies Record<string, Aggregation>;

export interface GroupBucket {
  key: CompositeKey;
  doc_count: number;
  capacity_mw: { value: number | null };
  annual_payment_obligation_usd: { value: number | null };
  guaranteed_amount_usd: { value: number | null };
  with_disclosed_amounts: { doc_count: number };
}

export interface CompositePage {
  buckets: GroupBucket[];
  after_key?: CompositeKey;
}

/** The source name of the nth dimension of a walk. */
export const sourceName = (position: number) => `d${position}`;

function composite(dimensions: readonly DimensionName[], after?: CompositeKey): Aggregation {
  return {
    composite: {
      size: GROUP_PAGE_SIZE,
      sources: dimensions.map((dimension, position) => ({
        [sourceName(position)]: { terms: { field: GROUP_DIMENSIONS[dimension].field, missing_bucket: true } },
      })),
      ...(after ? { after } : {}),
    },
    aggs: GROUP_METRICS,
  };
}

/** The dimensions each walk of a roll-up groups by. */
export function walksOf(groups: GroupQuery): Map<WalkName, readonly DimensionName[]> {
  const [first, second] = groups.dimensions;
  const walks = new Map<WalkName, readonly DimensionName[]>([[GROUPS_AGGREGATION, [first!]]]);
  if (second !== undefined) walks.set(PAIRS_AGGREGATION, [first!, second]);
  return walks;
}

/** The aggregations of the walks still under way, each from where it stopped (absent: from the start). */
export function groupAggregations(
  groups: GroupQuery,
  positions: ReadonlyMap<WalkName, CompositeKey | undefined>,
): Record<string, Aggregation> {
  const aggs: Record<string, Aggregation> = {};
  for (const [name, dimensions] of walksOf(groups)) {
    if (positions.has(name)) aggs[name] = composite(dimensions, positions.get(name));
  }
  return aggs;
}

/** Where a walk goes on after this page, or undefined when the page was its last. */
export function nextPosition(page: CompositePage): CompositeKey | undefined {
  return page.buckets.length < GROUP_PAGE_SIZE ? undefined : page.after_key;
}

/** The groups of `dimension` in one pass: a terms aggregation of every key, the PPAs without one in a bucket. */
export function groupsInOnePass(dimension: DimensionName): Aggregation {
  const { field } = GROUP_DIMENSIONS[dimension];
  const numeric = isNumeric(GROUP_DIMENSIONS[dimension]);
  return {
    terms: {
      field,
      size: GROUP_TERMS_SIZE,
      shard_size: GROUP_TERMS_SIZE,
      missing: numeric ? MISSING_NUMBER : MISSING_KEYWORD,
    },
    aggs: GROUP_METRICS,
  };
}

interface TermsAnswer {
  buckets: (Omit<GroupBucket, 'key'> & { key: string | number })[];
  sum_other_doc_count?: number;
  doc_count_error_upper_bound?: number;
}

/** The one pass's groups as a walk's buckets, or undefined when it left keys out (the walk then asks them all). */
export function onePassGroups(answer: TermsAnswer): GroupBucket[] | undefined {
  if ((answer.sum_other_doc_count ?? 0) !== 0 || (answer.doc_count_error_upper_bound ?? 0) !== 0)
    return undefined;
  // Each bucket keyed as a walk's, in place: tens of thousands of them, copied they would be garbage at once.
  const buckets = answer.buckets as unknown as GroupBucket[];
  for (const bucket of answer.buckets) {
    const { key } = bucket;
    (bucket as unknown as GroupBucket).key = {
      [sourceName(0)]: key === MISSING_KEYWORD || key === MISSING_NUMBER ? null : key,
    };
  }
  return buckets;
}
