// The parties' reconciliation service's own parts: its description (type, properties, extension columns, paths),
// what a party is to the scoring (its names: its name and every alias; which countries and roles it has), its
// extension values, its preview card and its entity suggestions.
import type { estypes } from '@elastic/elasticsearch';
import { PARTY_ROLE_NAMES, type PartyRole } from '../../indexContract/parties.js';
import { countryNames } from '../../indexContract/text/countryNames.js';
import { foldedWords } from '../../indexContract/text/tokenizer.js';
import { API_PATHS, RECONCILE_PATHS } from '../http/apiPath.js';
import type { PropertyValue } from '../params/reconcile.js';
import type { ReconcilePartySource } from '../queries/reconcilePartiesSearch.js';
import type { CandidateFacts, ReconcileType } from './reconcileCandidates.js';
import { inCountry } from './reconcilePpas.js';
import { previewCard, type ExtendValue, type ServiceDescription } from './reconcileService.js';
import { roundMw, roundUsd } from './rounding.js';

export const PARTY_TYPE: ReconcileType = {
  id: 'party',
  name: 'Party (developer, offtaker or procuring entity)',
};

/** GET /api/v1/parties/{id}: where a party's page is. */
const PARTIES_PATH = API_PATHS.parties;

export const PARTY_SERVICE: ServiceDescription = {
  name: 'PPA search: parties (developers, offtakers, procuring entities)',
  paths: RECONCILE_PATHS.parties,
  type: PARTY_TYPE,
  viewPath: `${PARTIES_PATH}/{{id}}`,
  identifierPath: `${PARTIES_PATH}/`,
  queryProperties: [
    {
      id: 'country',
      name: 'Country',
      description: 'A country where the party has a PPA: ISO 3166-1 alpha-2 code ("SN") or English name.',
    },
    {
      id: 'role',
      name: 'Role',
      description: 'A role the party has in a PPA: developer, offtaker or procuring_entity.',
    },
  ],
  extendProperties: [
    { id: 'ppas', name: 'PPAs', description: 'The published, active PPAs it is a party to.' },
    { id: 'capacity_mw', name: 'Capacity (MW)', description: 'The capacity of its PPAs, in megawatts.' },
    {
      id: 'guaranteed_amount_usd',
      name: 'Guaranteed amount (USD)',
      description: 'The amounts guaranteed by the state over its PPAs that disclose one, in US dollars.',
    },
    { id: 'countries', name: 'Countries', description: 'Where its PPAs are, most PPAs first (codes).' },
    { id: 'roles', name: 'Roles', description: 'The roles it has in its PPAs.' },
  ],
};

/** "Procuring entity", "procuring_entity" and "procuring-entity" are one role. */
function roleOf(value: string): PartyRole | undefined {
  const words = foldedWords(value).join('_');
  return PARTY_ROLE_NAMES.find((role) => role === words);
}

/** Whether a party has one of the values given for a property. */
function agreesWith(source: ReconcilePartySource, pid: string, values: readonly PropertyValue[]): boolean {
  return values.some(({ text }) => {
    if (pid === 'country') return source.countries.some((code) => inCountry(code, text));
    if (pid === 'role') {
      const role = roleOf(text);
      return role !== undefined && source.role_names.includes(role);
    }
    return false;
  });
}

const ROLE_LABELS: Readonly<Record<PartyRole, string>> = {
  developer: 'Developer',
  offtaker: 'Offtaker',
  procuring_entity: 'Procuring entity',
};

/** Its roles with their PPAs, e.g. "Developer (3), Offtaker (1)". */
const rolesLine = (source: ReconcilePartySource): string =>
  PARTY_ROLE_NAMES.filter((role) => (source.roles[role] ?? 0) > 0)
    .map((role) => `${ROLE_LABELS[role]} (${source.roles[role]})`)
    .join(', ');

/** One line about a party: roles, PPAs, capacity, countries. */
export function describeParty(source: ReconcilePartySource): string {
  const countries = source.countries.slice(0, 5).join(', ');
  return [
    rolesLine(source),
    `${source.ppas} PPA${source.ppas === 1 ? '' : 's'}`,
    `${roundMw(source.capacity_mw)} MW`,
    countries,
  ]
    .filter((part) => part !== '')
    .join(' · ');
}

/** What the scoring knows of a party: its names are its name and every spelling it goes by. */
export function partyFacts(source: ReconcilePartySource): CandidateFacts {
  return {
    id: source.id,
    name: source.name,
    description: describeParty(source),
    names: [source.name, ...source.aliases.map((alias) => alias.name)],
    agrees: (pid, values) => agreesWith(source, pid, values),
  };
}

/** The sources of a search's hits, in its order. */
export const partySourcesOf = (
  response: estypes.SearchResponse<ReconcilePartySource>,
): ReconcilePartySource[] => response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));

/** One extension column's values for a party, rounded as the roll-ups round them. */
export function partyExtendValues(source: ReconcilePartySource, property: string): ExtendValue[] {
  switch (property) {
    case 'ppas':
      return [{ int: source.ppas }];
    case 'capacity_mw':
      return [{ float: roundMw(source.capacity_mw) }];
    case 'guaranteed_amount_usd':
      return [{ float: roundUsd(source.guaranteed_amount_usd) }];
    case 'countries':
      return source.countries.map((code) => ({ str: code }));
    case 'roles':
      return PARTY_ROLE_NAMES.filter((role) => source.role_names.includes(role)).map((role) => ({
        str: role,
      }));
    default:
      return [];
  }
}

/** The preview card of a party. */
export function partyPreview(source: ReconcilePartySource, base: string): string {
  const countries = source.countries.map((code) => countryNames(code)[0] ?? code).join(', ');
  const aliases = source.aliases
    .map((alias) => alias.name)
    .filter((name) => name !== source.name)
    .join('; ');
  return previewCard(source.name, `${base}${PARTIES_PATH}/${source.id}`, [
    ['Roles', rolesLine(source)],
    ['PPAs', String(source.ppas)],
    ['Capacity', `${roundMw(source.capacity_mw)} MW`],
    ['Countries', countries],
    ...(aliases === '' ? [] : ([['Also written', aliases]] as [string, string][])),
  ]);
}

/** Entity suggestions: parties, each with its type. */
export function presentSuggestedParties(sources: readonly ReconcilePartySource[]) {
  return {
    result: sources.map((source) => ({
      id: source.id,
      name: source.name,
      description: describeParty(source),
      notable: [PARTY_TYPE],
    })),
  };
}
