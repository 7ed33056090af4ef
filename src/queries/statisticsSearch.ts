// GET /api/v1/ppas/statistics → one search request, size 0: every block of the statistics is an aggregation
// over the same filtered set, plus an `_index` bucket that names the live index (its build time is
// meta.generated_at), there even when the filters match nothing (min_doc_count 0; no global pass over every
// document for it).
//
// Lean on purpose (statistics are the costliest answer: every matching document is aggregated): nothing is
// scored (`q` goes in filter context too: the same matches, no scores, cacheable clauses); the risk-feature
// exposures are read from the by_risk_feature buckets and the records without a year from a `missing` bucket of
// by_year, instead of passes of their own. Size-0 requests like this one are what Elasticsearch's shard request
// cache keeps, so the unfiltered statistics asked again are cheap there too.
import type { estypes } from '@elastic/elasticsearch';
import { DIMENSIONS, type DimensionKey } from '../../indexContract/dimensions.js';
import type { StatisticsQuery } from '../params/statistics.js';
import type { SearchRequestBody } from '../gateway/gateway.js';
import { buildSearchQuery } from './searchQuery.js';

/** Terms buckets asked for on the open sets (technology, tariff, risk feature, year): far above any real count. */
export const TERMS_SIZE = 1000;

const capacity = { capacity_mw: { sum: { field: 'capacity_mw' } } } satisfies Record<
  string,
  estypes.AggregationsAggregationContainer
>;

/** A dimension's statistics block: `by_<its group_by name>`, a bucket per value with its capacity. */
type ByDimension<K extends DimensionKey> = `by_${(typeof DIMENSIONS)[K]['group']}`;
export const byDimension = <K extends DimensionKey>(key: K): ByDimension<K> =>
  `by_${DIMENSIONS[key].group}` as ByDimension<K>;

function termsWithCapacity(key: DimensionKey): estypes.AggregationsAggregationContainer {
  return { terms: { field: DIMENSIONS[key].field, size: TERMS_SIZE }, aggs: capacity };
}

/** The fiscal exposure's sums, over disclosed amounts only: the statistics' and each roll-up group's. */
export const FISCAL_SUMS = {
  annual_payment_obligation_usd: { sum: { field: 'fiscal.annual_payment_obligation_usd' } },
  guaranteed_amount_usd: { sum: { field: 'fiscal.guaranteed_amount_usd' } },
  with_disclosed_amounts: {
    filter: {
      bool: {
        should: [
          { exists: { field: 'fiscal.annual_payment_obligation_usd' } },
          { exists: { field: 'fiscal.guaranteed_amount_usd' } },
        ],
        minimum_should_match: 1,
      },
    },
  },
} satisfies Record<string, estypes.AggregationsAggregationContainer>;

/**
 * The red flags' topic: the PPAs raising each code, with their capacity and disclosed guaranteed amounts; the PPAs
 * on which each code could not be decided (the indexer's `flags_undecidable`), and those of an index built before
 * the flags (no `flag_count`: nothing decided), so that `computable` is the selection less both.
 */
const FLAG_AGGREGATIONS = {
  flags_raised: {
    terms: { field: DIMENSIONS.flag.field, size: TERMS_SIZE },
    aggs: { ...capacity, guaranteed_amount_usd: FISCAL_SUMS.guaranteed_amount_usd },
  },
  flags_undecidable: { terms: { field: 'flags_undecidable', size: TERMS_SIZE } },
  flags_unevaluated: { missing: { field: 'flag_count' } },
} satisfies Record<string, estypes.AggregationsAggregationContainer>;

/** The by_year bucket of the records without a financial-close year (no real year is negative). */
export const WITHOUT_YEAR_KEY = -1;

export function buildStatisticsSearch(query: StatisticsQuery): SearchRequestBody {
  const { bool } = buildSearchQuery(query) as { bool: estypes.QueryDslBoolQuery };
  const filter = [...(bool.filter as estypes.QueryDslQueryContainer[]), ...((bool.must as []) ?? [])];
  return {
    query: { bool: { filter } },
    size: 0,
    track_total_hits: true,
    aggs: {
      ...capacity,
      [byDimension('technology')]: termsWithCapacity('technology'),
      [byDimension('year')]: {
        terms: { field: DIMENSIONS.year.field, size: TERMS_SIZE, missing: WITHOUT_YEAR_KEY },
        aggs: capacity,
      },
      ...FISCAL_SUMS,
      [byDimension('riskFeature')]: termsWithCapacity('riskFeature'),
      [byDimension('tariff')]: termsWithCapacity('tariff'),
      ...FLAG_AGGREGATIONS,
      live_index: { terms: { field: '_index', size: 1, min_doc_count: 0 } },
    },
  };
}

interface SumAggregate {
  value: number | null;
}
interface CapacityBucket {
  key: string | number;
  doc_count: number;
  capacity_mw: SumAggregate;
}
interface TermsAggregate<TBucket> {
  buckets: TBucket[];
  sum_other_doc_count?: number;
}

/** The aggregations of a statistics response, as buildStatisticsSearch asks for them. The by_year block holds the
 * records without a year in the WITHOUT_YEAR_KEY bucket. */
export type StatisticsAggregations = Record<
  ByDimension<'technology' | 'year' | 'riskFeature' | 'tariff'>,
  TermsAggregate<CapacityBucket>
> & {
  capacity_mw: SumAggregate;
  annual_payment_obligation_usd: SumAggregate;
  guaranteed_amount_usd: SumAggregate;
  with_disclosed_amounts: { doc_count: number };
  flags_raised: TermsAggregate<CapacityBucket & { guaranteed_amount_usd: SumAggregate }>;
  flags_undecidable: TermsAggregate<{ key: string | number; doc_count: number }>;
  flags_unevaluated: { doc_count: number };
  live_index: TermsAggregate<{ key: string; doc_count: number }>;
};
