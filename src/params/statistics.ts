// GET /api/v1/ppas/statistics: the list's filter parameters, nothing else (no paging, no sort).
import { declareQuery } from './declare.js';
import { FILTER_PARAMETERS, readFilters, REPEATABLE_FILTERS, type SearchFilters } from './filters.js';

export type StatisticsQuery = SearchFilters;

/** GET /api/v1/ppas/statistics's parameters: the filters. */
export const statisticsQuery = declareQuery(FILTER_PARAMETERS, readFilters, {
  repeatable: REPEATABLE_FILTERS,
});

/** Parses the raw query string of a statistics request; throws BadRequestError naming every problem. */
export function parseStatisticsQuery(querystring: string): StatisticsQuery {
  return statisticsQuery.parse(querystring);
}
