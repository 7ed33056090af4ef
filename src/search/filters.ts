// The query both the list and the statistics share: filters in filter context (cached, unscored) and, with
// `q`, the text query as the only scoring clause. Only active PPAs are ever listed or counted.
import type { estypes } from '@elastic/elasticsearch';
import type { SearchFilters } from '../params/filters.js';
import { DEVELOPER_KEYWORD_FIELD } from '../../indexContract/fields.js';
import { foldText } from '../../indexContract/text/fold.js';
import { buildTextQuery } from './textQuery.js';

type Query = estypes.QueryDslQueryContainer;

export function buildFilterClauses(filters: SearchFilters): Query[] {
  const clauses: Query[] = [{ term: { active: true } }];
  if (filters.technology) clauses.push({ terms: { technology: filters.technology } });
  if (filters.tariff) clauses.push({ terms: { tariff: filters.tariff } });
  if (filters.developer !== undefined) {
    clauses.push({
      wildcard: { [DEVELOPER_KEYWORD_FIELD]: { value: `*${escapeWildcard(foldText(filters.developer))}*` } },
    });
  }
  if (filters.year !== undefined) clauses.push({ term: { financial_close_year: filters.year } });
  for (const feature of filters.riskFeatures ?? []) clauses.push({ term: { risk_features: feature } });
  if (filters.minCapacity !== undefined || filters.maxCapacity !== undefined) {
    const range: estypes.QueryDslNumberRangeQuery = {};
    if (filters.minCapacity !== undefined) range.gte = filters.minCapacity;
    if (filters.maxCapacity !== undefined) range.lte = filters.maxCapacity;
    clauses.push({ range: { capacity_mw: range } });
  }
  return clauses;
}

export function buildSearchQuery(filters: SearchFilters): Query {
  const bool: estypes.QueryDslBoolQuery = { filter: buildFilterClauses(filters) };
  if (filters.q !== undefined) bool.must = [buildTextQuery(filters.q)];
  return { bool };
}

/** The developer text is a literal substring: wildcard metacharacters in it must not act as wildcards. */
export function escapeWildcard(text: string): string {
  return text.replace(/[\\*?]/g, (character) => `\\${character}`);
}
