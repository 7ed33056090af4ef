// GET /api/v1/ppas/statistics → one search request, size 0: every block of the statistics is an aggregation
// over the same filtered set, plus a global `_index` bucket that names the live index (its build time is
// meta.generated_at) even when the filters match nothing.
import type { estypes } from '@elastic/elasticsearch';
import type { StatisticsQuery } from '../params/statistics.js';
import type { SearchRequestBody } from './gateway.js';
import { buildSearchQuery } from './filters.js';

/** Terms buckets asked for on the open sets (technology, tariff, risk feature, year): far above any real count. */
export const TERMS_SIZE = 1000;

const capacity = { capacity_mw: { sum: { field: 'capacity_mw' } } } satisfies Record<
  string,
  estypes.AggregationsAggregationContainer
>;

function termsWithCapacity(field: string): estypes.AggregationsAggregationContainer {
  return { terms: { field, size: TERMS_SIZE }, aggs: capacity };
}

function withRiskFeature(feature: string): estypes.AggregationsAggregationContainer {
  return { filter: { term: { risk_features: feature } }, aggs: capacity };
}

export function buildStatisticsSearch(query: StatisticsQuery): SearchRequestBody {
  return {
    query: buildSearchQuery(query),
    size: 0,
    track_total_hits: true,
    aggs: {
      ...capacity,
      by_technology: termsWithCapacity('technology'),
      by_year: termsWithCapacity('financial_close_year'),
      without_year: { missing: { field: 'financial_close_year' }, aggs: capacity },
      government_guarantee: withRiskFeature('government_guarantee'),
      take_or_pay: withRiskFeature('take_or_pay'),
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
      by_risk_feature: termsWithCapacity('risk_features'),
      by_tariff: termsWithCapacity('tariff'),
      live_index: { global: {}, aggs: { name: { terms: { field: '_index', size: 1 } } } },
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

/** The aggregations of a statistics response, as buildStatisticsSearch asks for them. */
export interface StatisticsAggregations {
  capacity_mw: SumAggregate;
  by_technology: TermsAggregate<CapacityBucket>;
  by_year: TermsAggregate<CapacityBucket>;
  without_year: { doc_count: number; capacity_mw: SumAggregate };
  government_guarantee: { doc_count: number; capacity_mw: SumAggregate };
  take_or_pay: { doc_count: number; capacity_mw: SumAggregate };
  annual_payment_obligation_usd: SumAggregate;
  guaranteed_amount_usd: SumAggregate;
  with_disclosed_amounts: { doc_count: number };
  by_risk_feature: TermsAggregate<CapacityBucket>;
  by_tariff: TermsAggregate<CapacityBucket>;
  live_index: { doc_count: number; name: TermsAggregate<{ key: string; doc_count: number }> };
}
