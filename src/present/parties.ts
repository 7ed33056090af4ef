// The parties' bodies: a page of GET /api/v1/parties and the body of GET /api/v1/parties/{id}. Pure. The figures are
// the party document's sums (indexContract/parties.ts) rounded as the roll-ups round them.
import type { estypes } from '@elastic/elasticsearch';
import { PARTY_ROLE_NAMES, type PartyDocument } from '../../indexContract/parties.js';
import { API_PATHS } from '../http/apiPath.js';
import { encodeBoundCursor, positionAfter } from '../params/cursor.js';
import { MAX_PER_PAGE, MAX_RESULT_WINDOW } from '../params/list.js';
import { PARTY_SORTS, partiesWalkBinding, type PartiesQuery } from '../params/parties.js';
import { withParameters } from './links.js';
import { trimSlash } from './ppa.js';
import { roundMw, roundUsd } from './rounding.js';
import {
  count,
  megawatts,
  nullable,
  oneOf,
  optionalInteger,
  optionalString,
  record,
  ref,
  Type,
  type Static,
} from '../wire/bodySchema.js';

const idSchema = Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', description: 'The party id.' });

export const PartyItemSchema = record({
  id: idSchema,
  name: Type.String({ description: 'Its most common spelling (ties: the first in code-point order).' }),
  roles: record(
    Object.fromEntries(PARTY_ROLE_NAMES.map((role) => [role, count(`PPAs it is ${role} of.`)])) as Record<
      (typeof PARTY_ROLE_NAMES)[number],
      ReturnType<typeof count>
    >,
    'PPAs in each role.',
  ),
  ppas: count('Its active PPAs, each once however many roles it has in it.'),
  capacity_mw: megawatts('Their capacity, MW rounded to 0.1.'),
  annual_payment_obligation_usd: count('Sum of their disclosed annual payment obligations, whole USD.'),
  guaranteed_amount_usd: count('Sum of their disclosed guaranteed amounts, whole USD.'),
  ppas_with_disclosed_amounts: count('Those with an annual payment obligation or a guaranteed amount.'),
  countries: Type.Array(Type.String({ pattern: '^[A-Z]{2}$' }), {
    description: 'The countries of its PPAs (ISO 3166-1 alpha-2), most PPAs first, ties by code.',
  }),
  url: Type.String({ format: 'uri', description: 'Its page.' }),
});
export type PartyItem = Static<typeof PartyItemSchema>;

export const PartyDetailSchema = record({
  ...PartyItemSchema.properties,
  aliases: Type.Array(record({ name: Type.String(), ppas: count('PPAs spelling it so.') }), {
    description: 'Every spelling (runs of spaces made one), most PPAs first, ties in code-point order.',
  }),
  years: record({
    first: nullable(Type.Integer({ description: 'First financial close year; null: none known.' })),
    last: nullable(Type.Integer({ description: 'Last financial close year; null: none known.' })),
  }),
  partners: Type.Array(record({ id: idSchema, name: Type.String(), ppas: count('PPAs shared.') }), {
    maxItems: 10,
    description: 'The 10 parties it shares most PPAs with, most first, ties by id.',
  }),
  links: record({ ppas: Type.String({ format: 'uri', description: 'Its PPAs: the list with party=<id>.' }) }),
});
export type PartyDetail = Static<typeof PartyDetailSchema>;

export const PartyDetailResponseSchema = record({ data: ref('PartyDetail', PartyDetailSchema) });

export const PartyListSchema = record({
  data: Type.Array(ref('PartyItem', PartyItemSchema), { maxItems: MAX_PER_PAGE }),
  meta: record({
    total: count('Matching parties.'),
    page: optionalInteger({ minimum: 1, description: 'null in cursor mode.' }),
    per_page: Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE }),
    total_pages: optionalInteger({ minimum: 0, description: 'ceil(total / per_page); null in cursor mode.' }),
    sort: oneOf(PARTY_SORTS, { description: 'The ordering applied.' }),
    next_cursor: Type.Optional(
      optionalString({ description: 'Cursor mode only: the cursor of the next page; null after the last.' }),
    ),
  }),
  links: record({
    self: Type.String({ format: 'uri' }),
    prev: optionalString({ format: 'uri', description: 'null on the first page and in cursor mode.' }),
    next: optionalString({ format: 'uri', description: 'null on the last page.' }),
  }),
});
export type PartyListBody = Static<typeof PartyListSchema>;

export const partyUrl = (base: string, id: string): string =>
  `${trimSlash(base)}${API_PATHS.parties}/${encodeURIComponent(id)}`;

export function presentPartyItem(party: PartyDocument, base: string): PartyItem {
  return {
    id: party.id,
    name: party.name,
    roles: {
      developer: party.roles.developer,
      offtaker: party.roles.offtaker,
      procuring_entity: party.roles.procuring_entity,
    },
    ppas: party.ppas,
    capacity_mw: roundMw(party.capacity_mw),
    annual_payment_obligation_usd: roundUsd(party.annual_payment_obligation_usd),
    guaranteed_amount_usd: roundUsd(party.guaranteed_amount_usd),
    ppas_with_disclosed_amounts: party.ppas_with_disclosed_amounts,
    countries: party.countries,
    url: partyUrl(base, party.id),
  };
}

/** A party's page; `names` the partners' names by id (a partner no longer served is left out). */
export function presentPartyDetail(
  party: PartyDocument,
  names: ReadonlyMap<string, string>,
  base: string,
): PartyDetail {
  return {
    ...presentPartyItem(party, base),
    aliases: party.aliases,
    years: party.years,
    partners: party.partners.flatMap(({ id, ppas }) => {
      const name = names.get(id);
      return name === undefined ? [] : [{ id, name, ppas }];
    }),
    links: { ppas: `${trimSlash(base)}${API_PATHS.ppas}?party=${encodeURIComponent(party.id)}` },
  };
}

function totalOf(total: estypes.SearchTotalHits | number | undefined): number {
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

/** A page of parties, its meta and links (every other parameter kept as sent). */
export function presentPartyList(
  query: PartiesQuery,
  response: estypes.SearchResponse<PartyDocument>,
  request: { querystring: string; base: string },
): PartyListBody {
  const hits = response.hits.hits;
  const data = hits.map((hit) => presentPartyItem(hit._source!, request.base));
  const total = totalOf(response.hits.total);
  const at = { ...request };
  const self = withParameters(at, {}, [], API_PATHS.parties);
  if (query.cursor !== undefined) {
    const last = hits[hits.length - 1];
    const nextCursor =
      hits.length === query.perPage && last?.sort
        ? encodeBoundCursor(partiesWalkBinding(query), positionAfter(last.sort))
        : null;
    return {
      data,
      meta: {
        total,
        page: null,
        per_page: query.perPage,
        total_pages: null,
        sort: query.sort,
        next_cursor: nextCursor,
      },
      links: {
        self,
        prev: null,
        next: nextCursor ? withParameters(at, { cursor: nextCursor }, [], API_PATHS.parties) : null,
      },
    };
  }
  const totalPages = Math.ceil(total / query.perPage);
  const page = (target: number) => withParameters(at, { page: String(target) }, [], API_PATHS.parties);
  const nextFits = (query.page + 1) * query.perPage <= MAX_RESULT_WINDOW;
  return {
    data,
    meta: { total, page: query.page, per_page: query.perPage, total_pages: totalPages, sort: query.sort },
    links: {
      self,
      prev: query.page > 1 ? page(query.page - 1) : null,
      next: query.page < totalPages && nextFits ? page(query.page + 1) : null,
    },
  };
}
