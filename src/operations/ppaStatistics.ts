// GET /api/v1/ppas/statistics: portfolio statistics over the PPAs the list filters match, and with group_by their
// roll-up (data.groups), as JSON or, for the groups, CSV.
import { attachment, OUTPUT_FORMATS } from '../export/formats.js';
import { API_PATHS } from '../http/apiPath.js';
import {
  apiResponses,
  badRequest,
  EVERY_ANSWER,
  headerRefs,
  ifNoneMatch,
  RATE_LIMIT_HEADERS,
  requestIdHeader,
} from '../openapi/responses.js';
import { statisticsQuery } from '../params/statistics.js';
import { presentGroups, presentPartyGroups } from '../present/groups.js';
import { presentStatistics, StatisticsSchema } from '../present/statistics.js';
import { runStatistics } from '../queries/statisticsPlan.js';
import { fileRepresentation } from '../wire/representation.js';
import { operation } from './operation.js';

export const ppaStatistics = operation({
  path: API_PATHS.statistics,
  query: statisticsQuery,
  notHere: 'statistics are neither paginated nor sorted (group_sort orders the groups)',
  doc: {
    operationId: 'ppaStatistics',
    tags: ['ppas'],
    summary: 'Portfolio statistics over published, active PPAs, and roll-ups by any dimension',
    description:
      'Accepts the list filters and describes only the matching PPAs; page, per_page and sort are not ' +
      'statistics parameters (400). Capacities are MW rounded to 0.1, shares 0..1 rounded to 0.0001. With ' +
      'group_by, data.groups and data.groups_meta add the roll-up (the topics stay as they are): exact sums over ' +
      'the matching PPAs, whatever the number of groups; format=csv answers the groups as CSV.',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: {
      ...apiResponses(
        { description: 'Statistics of the matching PPAs.', schema: 'Statistics' },
        { '400': badRequest },
      ),
      '200': {
        description:
          'Statistics of the matching PPAs (JSON); with group_by and format=csv, the groups as CSV.',
        headers: headerRefs([...RATE_LIMIT_HEADERS, ...EVERY_ANSWER, 'ETag', 'Cache-Control']),
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/Statistics' } },
          'text/csv': {
            schema: {
              type: 'string',
              description:
                'Header row: the dimension(s), then ppas, capacity_mw, share_of_capacity, annual_payment_obligation_usd, ' +
                'guaranteed_amount_usd, ppas_with_disclosed_amounts; one row a group shown (a pivot: a pair shown).',
            },
          },
        },
      },
    },
  },
  schemas: { Statistics: StatisticsSchema },
  handler:
    (deps) =>
    async ({ ctx, query, answer }) => {
      const { groups, format } = query;
      // A roll-up in a file format (not the JSON body) is an attachment.
      const file = groups && format !== 'json' ? OUTPUT_FORMATS.statistics[format] : undefined;
      if (groups && file) {
        ctx.set('Content-Disposition', attachment(`ppa-groups-${groups.dimensions.join('-')}`, file));
      }
      await answer(JSON.stringify(query), async () => {
        const { response, walks, parties } = await runStatistics(query, deps.search);
        const body = presentStatistics(response);
        const totalCapacity = response.aggregations?.capacity_mw.value ?? 0;
        if (!groups || (!walks && !parties)) return { body };
        // A counterparty over the whole active set: the groups the parties hold; else grouped from the PPAs.
        const part = parties
          ? presentPartyGroups(groups, parties.groups, parties.nullGroup, totalCapacity)
          : presentGroups(groups, walks!, totalCapacity);
        if (file) {
          const text = file.render({ dimensions: groups.dimensions, part });
          return fileRepresentation(Buffer.from(text), file.contentType);
        }
        return { body: { ...body, data: { ...body.data, ...part } } };
      });
    },
});
