// The query both the list and the statistics share: filters in filter context (cached, unscored) and, with
// `q`, the text query as the only scoring clause. Only active PPAs are ever listed or counted.
import type { estypes } from '@elastic/elasticsearch';
import { filterClauses, type FilterClause, type SearchFilters } from '../params/filters.js';
import { buildTextQuery, buildTextSelection } from './textQuery.js';

type Query = estypes.QueryDslQueryContainer;

/** Every filter clause, each marked with the facetable filter it is (if any); only active PPAs, always. */
export function buildNamedFilterClauses(filters: SearchFilters): FilterClause[] {
  return [{ clause: { term: { active: true } } }, ...filterClauses(filters)];
}

export function buildFilterClauses(filters: SearchFilters): Query[] {
  return buildNamedFilterClauses(filters).map(({ clause }) => clause);
}

/** The query over `clauses` (all the filters' unless a caller keeps some for a post_filter) and `q`. */
export function buildSearchQuery(filters: SearchFilters, clauses = buildFilterClauses(filters)): Query {
  const bool: estypes.QueryDslBoolQuery = { filter: clauses };
  if (filters.q !== undefined) bool.must = [buildTextQuery(filters.q)];
  return { bool };
}

/**
 * What buildSearchQuery selects, unscored: every clause a filter, `q` as its selection (no bonuses). For a count
 * of what a request would find, where nothing is ranked.
 */
export function buildSelectionQuery(filters: SearchFilters, clauses = buildFilterClauses(filters)): Query {
  return {
    bool: { filter: filters.q === undefined ? clauses : [...clauses, buildTextSelection(filters.q)] },
  };
}
