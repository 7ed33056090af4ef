// meta.facets in the same search as the page (disjunctive faceting). The facetable filters whose facet is asked
// for move from the query to a post_filter: the hits still obey them, but each facet's aggregation sees the
// query's matches and applies every post_filter clause but its own. So a technology count is what choosing that
// technology alone would give, while the other filters hold. risk_features is an AND filter: it stays in the
// query, and its facet counts under every filter, so a count is what adding that feature would give.
//
// The facets that see the same filter (every asked facet without a filter of its own) are counted together: one
// terms aggregation on facet_values ("<facet>:<value>" keywords, indexContract/facetValues.ts) visits each match
// once for all of them, where one aggregation per facet would visit it once per facet; the API then splits,
// orders and caps the buckets. A facet with its own filter sees a filter of its own, so it gets its own
// aggregation.
import type { estypes } from '@elastic/elasticsearch';
import { facetDimension, type FacetDeclaration } from '../../indexContract/dimensions.js';
import { FACET_VALUES_FIELD, parseFacetValue } from '../../indexContract/facetValues.js';
import { MAX_FACET_BUCKETS, type FacetName } from '../params/facets.js';
import type { FacetableFilter, FilterClause } from '../params/filters.js';

type Query = estypes.QueryDslQueryContainer;

/** A facet's order (its declaration's) as Elasticsearch's terms order. */
const TERMS_ORDER: Record<FacetDeclaration['order'], estypes.AggregationsAggregateOrder> = {
  count_desc: [{ _count: 'desc' }, { _key: 'asc' }],
  value_desc: [{ _key: 'desc' }],
};

/**
 * Each shard returns this many candidate buckets, so counts and the top 50 stay exact on a multi-shard index
 * for fields of this cardinality (countries: about 250 values).
 */
const SHARD_SIZE = 300;

/**
 * Buckets of the combined aggregation: every value of every facet, so that each facet's top 50 and counts are
 * exact on any number of shards. The record schema bounds countries (two letters) and years (1900–2100) to under
 * 900 values together; technologies, tariffs and risk features are open tokens, a few dozen in practice. A
 * generation with more values than this in one group is still answered exactly: the counts are asked again, one
 * aggregation per facet (combinedFacetsComplete).
 */
export const COMBINED_FACET_BUCKETS = 2000;

export const facetAggregationName = (facet: FacetName) => `facet_${facet}`;
/** The aggregation that counts several facets at once (they share one filter). */
export const COMBINED_FACETS_AGGREGATION = 'facets_combined';

export interface FacetedSearchParts {
  /** Clauses for the query. */
  queryClauses: Query[];
  /** Clauses for the post_filter (empty: no post_filter). */
  postFilterClauses: Query[];
  aggs: Record<string, estypes.AggregationsAggregationContainer>;
}

export interface FacetAggregationOptions {
  /** Count the facets that share a filter with one aggregation (default); false: one aggregation per facet. */
  combine?: boolean;
}

const isFacet = (facets: readonly FacetName[], filter: FacetableFilter | undefined): boolean =>
  filter !== undefined && facets.includes(filter);

const filterOf = (clauses: Query[]): Query =>
  clauses.length > 0 ? { bool: { filter: clauses } } : { match_all: {} };

export function buildFacetedParts(
  clauses: readonly FilterClause[],
  facets: readonly FacetName[],
  { combine = true }: FacetAggregationOptions = {},
): FacetedSearchParts {
  const queryClauses = clauses.filter(({ facet }) => !isFacet(facets, facet)).map(({ clause }) => clause);
  const posted = clauses.filter(({ facet }) => isFacet(facets, facet));
  const postFilterClauses = posted.map(({ clause }) => clause);
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = {};
  // Without a filter of its own, a facet sees every post_filter clause: the same filter for all such facets.
  const unfiltered = facets.filter((facet) => !posted.some((entry) => entry.facet === facet));
  const together = combine && unfiltered.length >= 2 ? unfiltered : [];
  if (together.length > 0) {
    aggs[COMBINED_FACETS_AGGREGATION] = {
      filter: filterOf(postFilterClauses),
      aggs: {
        values: {
          terms: {
            field: FACET_VALUES_FIELD,
            size: COMBINED_FACET_BUCKETS,
            shard_size: COMBINED_FACET_BUCKETS,
            // Every facet's keywords are counted, asked for or not: an `include` pattern to keep only these
            // facets' would be compiled on every search, and costs more than it saves (measured on lists with
            // five facets: docs/performance.md).
          },
        },
      },
    };
  }
  for (const facet of facets) {
    if (together.includes(facet)) continue;
    const others = posted.filter((entry) => entry.facet !== facet).map(({ clause }) => clause);
    aggs[facetAggregationName(facet)] = {
      filter: filterOf(others),
      aggs: {
        values: {
          terms: {
            field: facetDimension(facet).field,
            size: MAX_FACET_BUCKETS,
            shard_size: SHARD_SIZE,
            order: TERMS_ORDER[facetDimension(facet).facet.order],
          },
        },
      },
    };
  }
  return { queryClauses, postFilterClauses, aggs };
}

interface TermsBucket {
  key: string | number;
  doc_count: number;
}

/** What Elasticsearch answers for one facet aggregation, or for the combined one. */
export interface FacetAggregation {
  values: { buckets: TermsBucket[]; sum_other_doc_count?: number };
}

export interface FacetBucket {
  value: string | number;
  count: number;
}

/**
 * False when the combined aggregation's counts are not all there, and the route asks again with one aggregation
 * per facet: it could not hold every value (more than its bucket limit), or it found none in documents that
 * match (every document has a technology and a tariff): an index written before facet_values existed.
 */
export function combinedFacetsComplete(aggregations: Record<string, unknown> | undefined): boolean {
  const combined = aggregations?.[COMBINED_FACETS_AGGREGATION] as
    (FacetAggregation & { doc_count?: number }) | undefined;
  if (!combined) return true;
  if ((combined.values.sum_other_doc_count ?? 0) > 0) return false;
  return !(combined.values.buckets.length === 0 && (combined.doc_count ?? 0) > 0);
}

/** Count descending, then value ascending (years: value descending): the order TERMS_ORDER asks for. */
function compareBuckets(facet: FacetName): (a: FacetBucket, b: FacetBucket) => number {
  if (facetDimension(facet).facet.order === 'value_desc') return (a, b) => Number(b.value) - Number(a.value);
  // Values are ASCII tokens and country codes: string order is Elasticsearch's byte order for them.
  return (a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/** Each asked facet's buckets, ordered and capped, from its own aggregation or from the combined one. */
export function readFacetBuckets(
  aggregations: Record<string, unknown> | undefined,
  facets: readonly FacetName[],
): Partial<Record<FacetName, FacetBucket[]>> {
  const fromCombined = new Map<FacetName, FacetBucket[]>();
  const combined = aggregations?.[COMBINED_FACETS_AGGREGATION] as FacetAggregation | undefined;
  for (const bucket of combined?.values.buckets ?? []) {
    const parsed = parseFacetValue(String(bucket.key));
    if (!parsed) continue;
    let list = fromCombined.get(parsed.facet);
    if (!list) fromCombined.set(parsed.facet, (list = []));
    list.push({ value: parsed.value, count: bucket.doc_count });
  }
  const presented: Partial<Record<FacetName, FacetBucket[]>> = {};
  for (const facet of facets) {
    const own = aggregations?.[facetAggregationName(facet)] as FacetAggregation | undefined;
    presented[facet] = own
      ? own.values.buckets.map((bucket) => ({ value: bucket.key, count: bucket.doc_count }))
      : (fromCombined.get(facet) ?? []).sort(compareBuckets(facet)).slice(0, MAX_FACET_BUCKETS);
  }
  return presented;
}
