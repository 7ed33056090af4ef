// GET /api/v1/ppas/statistics: the list's filter parameters, nothing else (no paging, no sort).
import { BadRequestError } from '../http/problem.js';
import {
  capacityProblems,
  filterProperties,
  foldedTextProblems,
  REPEATABLE_FILTERS,
  parameterDocs,
  toFilters,
  type SearchFilters,
} from './filters.js';
import { readQueryString } from './querystring.js';
import { paramsValidator, validOnly, type ParamsSchema } from './validate.js';

export type StatisticsQuery = SearchFilters;

export const statisticsParamsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...filterProperties },
} satisfies ParamsSchema;

export const statisticsParameters = parameterDocs(statisticsParamsSchema.properties);

const NOT_HERE = 'is not a statistics parameter (statistics are neither paginated nor sorted)';

const validator = paramsValidator(statisticsParamsSchema, {
  repeatable: REPEATABLE_FILTERS,
  unknownReasons: { page: NOT_HERE, per_page: NOT_HERE, sort: NOT_HERE },
});

/** Parses the raw query string of a statistics request; throws BadRequestError naming every problem. */
export function parseStatisticsQuery(querystring: string): StatisticsQuery {
  const { params, problems } = validator.validate(readQueryString(querystring));
  const filters = toFilters(validOnly(params, problems));
  problems.push(...capacityProblems(filters), ...foldedTextProblems(filters));
  if (problems.length > 0) throw new BadRequestError(problems);
  return filters;
}
