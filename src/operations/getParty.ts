// GET /api/v1/parties/{id}: one party with its aliases, years, partners and the link to its PPAs.
import type { PartyDocument } from '../../indexContract/parties.js';
import { API_PATHS } from '../http/apiPath.js';
import { NotFoundError } from '../http/problem.js';
import { apiResponses, badRequest, ifNoneMatch, problem, requestIdHeader } from '../openapi/responses.js';
import { NO_QUERY } from '../params/declare.js';
import { partyIdParam, partyIdSchema } from '../params/parties.js';
import { PartyDetailResponseSchema, PartyDetailSchema, presentPartyDetail } from '../present/parties.js';
import { buildPartiesByIdSearch } from '../queries/partiesSearch.js';
import { operation } from './operation.js';

const { description: idDescription, ...idPathSchema } = partyIdSchema;

export const getParty = operation({
  path: API_PATHS.party,
  query: NO_QUERY,
  notHere: 'it takes none',
  doc: {
    operationId: 'getParty',
    tags: ['parties'],
    summary: 'One party: its figures, aliases, years, partners and a link to its PPAs',
    description: 'Takes no query parameters (any is 400). An unknown id is 404.',
    parameters: [
      { name: 'id', in: 'path', required: true, description: idDescription, schema: idPathSchema },
      ifNoneMatch,
      requestIdHeader,
    ],
    responses: apiResponses(
      { description: 'The party.', schema: 'PartyDetailResponse' },
      { '400': badRequest, '404': problem('No party of the active PPAs has this id.') },
    ),
  },
  schemas: { PartyDetail: PartyDetailSchema, PartyDetailResponse: PartyDetailResponseSchema },
  handler:
    (deps) =>
    async ({ ctx, answer, base }) => {
      const id = partyIdParam(ctx.params.id ?? '');
      await answer(`${base} ${id}`, async () => {
        const found = await deps.search.searchParties<PartyDocument>(buildPartiesByIdSearch([id]));
        const party = found.hits.hits[0]?._source;
        if (!party) throw new NotFoundError();
        const partnerIds = party.partners.map((partner) => partner.id);
        const names = new Map<string, string>();
        if (partnerIds.length > 0) {
          const partners = await deps.search.searchParties<PartyDocument>({
            ...buildPartiesByIdSearch(partnerIds),
            _source: ['id', 'name'],
          });
          for (const hit of partners.hits.hits) names.set(hit._source!.id, hit._source!.name);
        }
        return { body: { data: presentPartyDetail(party, names, base) } };
      });
    },
});
