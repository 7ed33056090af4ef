// The query both the list and the statistics share: filters in filter context (cached, unscored) and, with
// `q`, the text query as the only scoring clause. Only active PPAs are ever listed or counted.
import type { estypes } from '@elastic/elasticsearch';
import type { SearchFilters } from '../params/filters.js';
import { DEVELOPER_KEYWORD_FIELD } from '../../indexContract/fields.js';
import { foldText } from '../../indexContract/text/fold.js';
import { buildTextQuery } from './textQuery.js';

type Query = estypes.QueryDslQueryContainer;

/** The filters a facet can leave out when it counts (each is one clause, an OR over its values). */
export type FacetableFilter = 'technology' | 'tariff' | 'country' | 'year';

export interface FilterClause {
  clause: Query;
  /** Set on the clause of a facetable filter. */
  facet?: FacetableFilter;
}

/** Every filter clause, each marked with the facetable filter it is (if any). */
export function buildNamedFilterClauses(filters: SearchFilters): FilterClause[] {
  return [{ clause: { term: { active: true } } }, ...buildParameterClauses(filters)];
}

/**
 * The clauses of the filter parameters alone, without the list's "active only": the change log matches them
 * against each event's PPA, a deactivation included.
 */
export function buildParameterClauses(filters: SearchFilters): FilterClause[] {
  const clauses: FilterClause[] = [];
  const { excluded = {} } = filters;
  for (const [facet, field] of VALUE_FILTERS) {
    const clause = valuesClause(field, filters[facet], excluded[facet]);
    if (clause) clauses.push({ clause, facet });
  }
  if (filters.developer !== undefined) {
    const value = `*${escapeWildcard(foldText(filters.developer))}*`;
    clauses.push({ clause: { wildcard: { [DEVELOPER_KEYWORD_FIELD]: { value } } } });
  }
  if (filters.year !== undefined) {
    clauses.push({ clause: { term: { financial_close_year: filters.year } }, facet: 'year' });
  }
  if (filters.years) {
    const { from, to } = filters.years;
    const range: estypes.QueryDslNumberRangeQuery = {};
    if (from !== undefined) range.gte = from;
    if (to !== undefined) range.lte = to;
    clauses.push({ clause: { range: { financial_close_year: range } }, facet: 'year' });
  }
  for (const feature of filters.riskFeatures ?? [])
    clauses.push({ clause: { term: { risk_features: feature } } });
  for (const feature of excluded.riskFeatures ?? [])
    clauses.push({ clause: { bool: { must_not: [{ term: { risk_features: feature } }] } } });
  if (filters.minCapacity !== undefined || filters.maxCapacity !== undefined) {
    const range: estypes.QueryDslNumberRangeQuery = {};
    if (filters.minCapacity !== undefined) range.gte = filters.minCapacity;
    if (filters.maxCapacity !== undefined) range.lte = filters.maxCapacity;
    clauses.push({ clause: { range: { capacity_mw: range } } });
  }
  return clauses;
}

/** The filters of one value each (OR), their field in the index. */
const VALUE_FILTERS = [
  ['technology', 'technology'],
  ['tariff', 'tariff'],
  ['country', 'country_code'],
] as const;

/**
 * One value filter as one clause (its facet leaves it out whole, the values left out included): one of the
 * values chosen, and none of those left out. Only left out: a PPA without a value stays.
 */
function valuesClause(field: string, chosen?: string[], left?: string[]): Query | undefined {
  if (left === undefined) return chosen === undefined ? undefined : { terms: { [field]: chosen } };
  const mustNot = [{ terms: { [field]: left } }];
  return chosen === undefined
    ? { bool: { must_not: mustNot } }
    : { bool: { filter: [{ terms: { [field]: chosen } }], must_not: mustNot } };
}

export function buildFilterClauses(filters: SearchFilters): Query[] {
  return buildNamedFilterClauses(filters).map(({ clause }) => clause);
}

/** The query over `filterClauses` (all of them unless a caller keeps some for a post_filter) and `q`. */
export function buildSearchQuery(filters: SearchFilters, filterClauses = buildFilterClauses(filters)): Query {
  const bool: estypes.QueryDslBoolQuery = { filter: filterClauses };
  if (filters.q !== undefined) bool.must = [buildTextQuery(filters.q)];
  return { bool };
}

/** The developer text is a literal substring: wildcard metacharacters in it must not act as wildcards. */
export function escapeWildcard(text: string): string {
  return text.replace(/[\\*?]/g, (character) => `\\${character}`);
}
