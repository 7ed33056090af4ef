// meta.facets in the same search as the page (disjunctive faceting). The facetable filters whose facet is asked
// for move from the query to a post_filter: the hits still obey them, but each facet's aggregation sees the
// query's matches and applies every post_filter clause but its own. So a technology count is what choosing that
// technology alone would give, while the other filters hold. risk_features is an AND filter: it stays in the
// query, and its facet counts under every filter, so a count is what adding that feature would give.
import type { estypes } from '@elastic/elasticsearch';
import { MAX_FACET_BUCKETS, type FacetName } from '../params/facets.js';
import type { FacetableFilter, FilterClause } from './filters.js';

type Query = estypes.QueryDslQueryContainer;

const FACET_FIELDS: Record<FacetName, string> = {
  technology: 'technology',
  tariff: 'tariff',
  country: 'country_code',
  year: 'financial_close_year',
  risk_features: 'risk_features',
};

/** Count descending, then value ascending; years newest first. */
const FACET_ORDER: Record<FacetName, estypes.AggregationsAggregateOrder> = {
  technology: [{ _count: 'desc' }, { _key: 'asc' }],
  tariff: [{ _count: 'desc' }, { _key: 'asc' }],
  country: [{ _count: 'desc' }, { _key: 'asc' }],
  year: [{ _key: 'desc' }],
  risk_features: [{ _count: 'desc' }, { _key: 'asc' }],
};

/**
 * Each shard returns this many candidate buckets, so counts and the top 50 stay exact on a multi-shard index
 * for fields of this cardinality (countries: about 250 values).
 */
const SHARD_SIZE = 300;

export const facetAggregationName = (facet: FacetName) => `facet_${facet}`;

export interface FacetedSearchParts {
  /** Clauses for the query. */
  queryClauses: Query[];
  /** Clauses for the post_filter (empty: no post_filter). */
  postFilterClauses: Query[];
  aggs: Record<string, estypes.AggregationsAggregationContainer>;
}

const isFacet = (facets: readonly FacetName[], filter: FacetableFilter | undefined): boolean =>
  filter !== undefined && facets.includes(filter);

export function buildFacetedParts(
  clauses: readonly FilterClause[],
  facets: readonly FacetName[],
): FacetedSearchParts {
  const queryClauses = clauses.filter(({ facet }) => !isFacet(facets, facet)).map(({ clause }) => clause);
  const posted = clauses.filter(({ facet }) => isFacet(facets, facet));
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = {};
  for (const facet of facets) {
    const others = posted.filter((entry) => entry.facet !== facet).map(({ clause }) => clause);
    const filter: Query = others.length > 0 ? { bool: { filter: others } } : { match_all: {} };
    aggs[facetAggregationName(facet)] = {
      filter,
      aggs: {
        values: {
          terms: {
            field: FACET_FIELDS[facet],
            size: MAX_FACET_BUCKETS,
            shard_size: SHARD_SIZE,
            order: FACET_ORDER[facet],
          },
        },
      },
    };
  }
  return { queryClauses, postFilterClauses: posted.map(({ clause }) => clause), aggs };
}

/** What Elasticsearch answers for one facet aggregation. */
export interface FacetAggregation {
  values: { buckets: { key: string | number; doc_count: number }[] };
}
