// GET /api/v1/parties: the counterparties of the active PPAs as entities: a search over their names and aliases,
// by role and country, with their figures (src/present/parties.ts).
import type { PartyDocument } from '../../indexContract/parties.js';
import { API_PATHS } from '../http/apiPath.js';
import { apiResponses, badRequest, ifNoneMatch, requestIdHeader } from '../openapi/responses.js';
import { partiesQuery } from '../params/parties.js';
import { PartyItemSchema, PartyListSchema, presentPartyList } from '../present/parties.js';
import { buildPartiesSearch } from '../queries/partiesSearch.js';
import { operation } from './operation.js';

export const listParties = operation({
  path: API_PATHS.parties,
  query: partiesQuery,
  notHere: 'the parties take q, role, country, sort, page, per_page and cursor',
  doc: {
    operationId: 'listParties',
    tags: ['parties'],
    summary: 'Search the parties: developers (each consortium member), offtakers and procuring entities',
    description:
      'A party is each name among the developers (each member of a consortium), offtakers and procuring ' +
      'entities of the active PPAs; names equal but for case, accents and runs of spaces are one party. Its ' +
      'figures are sums over its PPAs with the roll-ups’ rules (a PPA counts once however many roles the party ' +
      'has in it). Without sort: relevance with q, ppas_desc without; ties by id.',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: apiResponses(
      { description: 'A page of parties.', schema: 'PartyList' },
      { '400': badRequest },
    ),
  },
  schemas: { PartyItem: PartyItemSchema, PartyList: PartyListSchema },
  handler:
    (deps) =>
    async ({ query, answer, base, canonicalQuery }) => {
      const querystring = canonicalQuery();
      await answer(`${base} ${querystring}`, async () => {
        const response = await deps.search.searchParties<PartyDocument>(buildPartiesSearch(query));
        return { body: presentPartyList(query, response, { querystring, base }) };
      });
    },
});
