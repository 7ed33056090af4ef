// GET /api/v1/ppas/statistics: portfolio statistics over the PPAs the list filters match.
import { API_PATHS } from '../http/apiPath.js';
import { apiResponses, badRequest, ifNoneMatch, requestIdHeader } from '../openapi/responses.js';
import { statisticsQuery } from '../params/statistics.js';
import { presentStatistics, StatisticsSchema } from '../present/statistics.js';
import { buildStatisticsSearch, type StatisticsAggregations } from '../queries/statisticsSearch.js';
import { operation } from './operation.js';

export const ppaStatistics = operation({
  path: API_PATHS.statistics,
  query: statisticsQuery,
  notHere: 'statistics are neither paginated nor sorted',
  doc: {
    operationId: 'ppaStatistics',
    tags: ['ppas'],
    summary: 'Portfolio statistics over published, active PPAs',
    description:
      'Accepts the list filters and describes only the matching PPAs; page, per_page and sort are not ' +
      'statistics parameters (400). Capacities are MW rounded to 0.1, shares 0..1 rounded to 0.0001.',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: apiResponses(
      { description: 'Statistics of the matching PPAs.', schema: 'Statistics' },
      { '400': badRequest },
    ),
  },
  schemas: { Statistics: StatisticsSchema },
  handler:
    (deps) =>
    async ({ query, answer }) => {
      await answer(JSON.stringify(query), async () => {
        const response = await deps.search.search<unknown, StatisticsAggregations>(
          buildStatisticsSearch(query),
        );
        return { body: presentStatistics(response) };
      });
    },
});
