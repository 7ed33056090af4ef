// A roll-up's aggregations (statistics?group_by=…): composite aggregations walked to the end, so the groups are
// exact whatever their number (a terms aggregation's top buckets are approximate across shards and capped by
// search.max_buckets, and a size covering every key cannot be known before asking). The groups of the first
// dimension are one walk; a pivot adds the pairs of both dimensions as a second (a PPA with several values of
// the second dimension counts once in its group, which the pairs alone could not say). Each page carries the
// figures of its buckets; the API merges spellings, sorts and cuts (src/present/groups.ts).
import type { estypes } from '@elastic/elasticsearch';
import { GROUP_DIMENSIONS, type DimensionName, type GroupQuery } from '../params/groupBy.js';
import { FISCAL_SUMS } from './statisticsSearch.js';

type Aggregation = estypes.AggregationsAggregationContainer;

/** Buckets a page of a walk holds: far below search.max_buckets (65,536), few pages even at 100k records. */
export const GROUP_PAGE_SIZE = 10_000;
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
