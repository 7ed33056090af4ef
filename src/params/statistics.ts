// GET /api/v1/ppas/statistics: the list's filter parameters, and the roll-ups' (group_by and what goes with it);
// no paging, no sort.
import { declareQuery } from './declare.js';
import { FILTER_PARAMETERS, readFilters, REPEATABLE_FILTERS, type SearchFilters } from './filters.js';
import { GROUP_PARAMETERS, type GroupQuery, type StatisticsFormat } from './groupBy.js';

export interface StatisticsQuery extends SearchFilters {
  /** group_by: the roll-up asked for. */
  groups?: GroupQuery;
  format: StatisticsFormat;
}

/** GET /api/v1/ppas/statistics's parameters: the filters and the roll-up. */
export const statisticsQuery = declareQuery(
  { ...FILTER_PARAMETERS, ...GROUP_PARAMETERS },
  (params, problems, sent): StatisticsQuery => {
    const filters = readFilters(params, problems);
    const { group_by: dimensions, group_sort: sort, group_limit: limit, format } = params;
    if (dimensions === undefined) {
      // What only a roll-up takes is an error without one, named by itself.
      for (const name of ['group_sort', 'group_limit', 'format'] as const) {
        if (sent.has(name) && !(name === 'format' && format === 'json'))
          problems.push({ name, reason: 'needs group_by' });
      }
      return { ...filters, format };
    }
    if (dimensions.length === 2 && dimensions[0] === dimensions[1]) {
      problems.push({ name: 'group_by', reason: 'a pivot needs two different dimensions' });
    }
    return { ...filters, groups: { dimensions, sort, limit }, format };
  },
  { repeatable: REPEATABLE_FILTERS },
);

/** Parses the raw query string of a statistics request; throws BadRequestError naming every problem. */
export function parseStatisticsQuery(querystring: string): StatisticsQuery {
  return statisticsQuery.parse(querystring);
}
