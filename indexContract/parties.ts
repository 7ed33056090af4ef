// Parties: the counterparties of the PPAs as entities. A party is one group key (counterparties.ts) among the
// developers (each consortium member), the offtakers and the procuring entities of the active PPAs. The indexer
// writes each PPA's party ids (`party_ids`) and builds one party document per id beside the PPAs, in the same
// generation (indexer/elasticsearch/partiesIndex.ts); the API reads both (the `party` filter, GET /api/v1/parties,
// the roll-ups' `party_id`, OCDS's party ids). Pure.
import { createHash } from 'node:crypto';
import { groupKey } from './counterparties.js';
import { GROUP_FIELDS } from './groupFields.js';
import { roundMw, roundUsd } from './rounding.js';

/** The roles a party has in a PPA, and the group field each is read from. */
export const PARTY_ROLES = {
  developer: GROUP_FIELDS.developer,
  offtaker: GROUP_FIELDS.offtaker,
  procuring_entity: GROUP_FIELDS.procuring_entity,
} as const;
export type PartyRole = keyof typeof PARTY_ROLES;
export const PARTY_ROLE_NAMES = Object.freeze(Object.keys(PARTY_ROLES) as PartyRole[]);

/** The PPA document's field holding its parties' ids (keyword, each once): the `party` filter reads it. */
export const PARTY_IDS_FIELD = 'party_ids';

/** The parties' alias of a PPA alias, and the parties' index of a PPA generation (same timestamp). */
export const partiesAliasOf = (alias: string): string => `${alias}-parties`;
export function partiesIndexOf(alias: string, ppaIndex: string): string {
  return `${partiesAliasOf(alias)}-${ppaIndex.slice(alias.length + 1)}`;
}

/** Letters a-z and digits, each run of anything else one "-", none at either end. */
function slugOf(key: string): string {
  return key
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * A group key's party id: its ASCII letters and digits joined by `-` ("kenya power" → "kenya-power"). Only a key
 * made of such words separated by single spaces owns its bare slug; any other key ("acme, inc.", "Ωmega") takes a
 * suffix of its own hash, so two keys never make one id and a key's id never depends on the others served.
 */
export function partyIdOfKey(key: string): string {
  const slug = slugOf(key);
  if (slug !== '' && slug.replaceAll('-', ' ') === key) return slug;
  const suffix = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return slug === '' ? `p-${suffix}` : `${slug}-${suffix}`;
}

/** A name's party id (the id of its group key). */
export const partyIdOf = (name: string): string => partyIdOfKey(groupKey(name));

/** What a PPA document gives its parties: the group fields (spellings by role) and the figures. */
export interface PartyPpa {
  slug: string;
  active: boolean;
  group_developer: string[];
  group_offtaker: string[];
  group_procuring_entity: string[];
  capacity_mw: number;
  country_code: string | null;
  financial_close_year: number | null;
  fiscal: { annual_payment_obligation_usd: number | null; guaranteed_amount_usd: number | null };
}

/** The `_source` fields a party is built from. */
export const PARTY_PPA_SOURCE = [
  'slug',
  'active',
  ...Object.values(PARTY_ROLES),
  'capacity_mw',
  'country_code',
  'financial_close_year',
  'fiscal.annual_payment_obligation_usd',
  'fiscal.guaranteed_amount_usd',
] as const;

/** A PPA's parties: each id with its roles and its spellings in the PPA. */
export function partiesOfPpa(
  ppa: Pick<PartyPpa, 'group_developer' | 'group_offtaker' | 'group_procuring_entity'>,
): Map<string, PpaParty> {
  const parties = new Map<string, PpaParty>();
  for (const role of PARTY_ROLE_NAMES) {
    for (const spelling of ppa[PARTY_ROLES[role]] ?? []) {
      const id = partyIdOf(spelling);
      let party = parties.get(id);
      if (!party) parties.set(id, (party = { roles: new Set(), spellings: new Set(), byRole: {} }));
      party.roles.add(role);
      party.spellings.add(spelling);
      // The group fields hold one spelling per group key and role.
      party.byRole[role] = spelling;
    }
  }
  return parties;
}

/** A party in one PPA: its roles, its spellings, and its spelling in each role. */
interface PpaParty {
  roles: Set<PartyRole>;
  spellings: Set<string>;
  byRole: Partial<Record<PartyRole, string>>;
}

/** The party ids a PPA document carries (`party_ids`). */
export const partyIdsOfPpa = (ppa: Parameters<typeof partiesOfPpa>[0]): string[] => [
  ...partiesOfPpa(ppa).keys(),
];

/** A party document (the parties' index): its figures unrounded, the API rounds them as the roll-ups do. */
export interface PartyDocument {
  id: string;
  name: string;
  /** Lowercased, accents removed: name_asc's key. */
  name_sort: string;
  /** Every spelling, folded, for `q`. */
  names_folded: string[];
  aliases: { name: string; ppas: number }[];
  roles: Record<PartyRole, number>;
  /** The roles it has in at least one PPA (the `role` filter). */
  role_names: PartyRole[];
  ppas: number;
  capacity_mw: number;
  annual_payment_obligation_usd: number;
  guaranteed_amount_usd: number;
  ppas_with_disclosed_amounts: number;
  /** Country codes, most PPAs first (ties by code). */
  countries: string[];
  years: { first: number | null; last: number | null };
  /** The parties it shares most PPAs with (at most PARTNERS), most first, ties by id. */
  partners: { id: string; ppas: number }[];
  /**
   * Its roll-up group in each role it has (null: none): the group `statistics?group_by=<role>` shows for the whole
   * active set, so that an unfiltered roll-up reads the groups here instead of grouping every PPA.
   */
  by_role: Record<PartyRole, RoleGroup | null>;
}

/** A party's roll-up group in one role: its figures over the PPAs naming it in that role, and the sort keys. */
export interface RoleGroup {
  /** The spelling most of those PPAs carry in that role (ties: the first in code-point order). */
  key: string;
  /** The name's group key: the roll-ups' ties. */
  group_key: string;
  ppas: number;
  capacity_mw: number;
  annual_payment_obligation_usd: number;
  guaranteed_amount_usd: number;
  ppas_with_disclosed_amounts: number;
  /** The figures as the roll-ups show and sort them. */
  rounded: { capacity_mw: number; annual_payment_obligation_usd: number; guaranteed_amount_usd: number };
}

export const PARTNERS = 10;

interface RoleTally {
  spellings: Map<string, number>;
  ppas: number;
  capacity: number;
  annual: number;
  guaranteed: number;
  disclosed: number;
}

interface Tally {
  byRole: Partial<Record<PartyRole, RoleTally>>;
  spellings: Map<string, number>;
  roles: Record<PartyRole, number>;
  ppas: number;
  capacity: number;
  annual: number;
  guaranteed: number;
  disclosed: number;
  countries: Map<string, number>;
  first: number | null;
  last: number | null;
  partners: Map<string, number>;
}

const byCountThenText = (a: [string, number], b: [string, number]): number =>
  b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * The party documents of `ppas` (inactive ones count for nothing), for every party they name or only those of
 * `only`. Exact for a party when `ppas` holds every active PPA naming it: the figures are sums over them.
 */
export function tallyParties(
  ppas: Iterable<PartyPpa>,
  foldName: (name: string) => string,
  only?: ReadonlySet<string>,
): PartyDocument[] {
  const tally = partyTally(foldName, only);
  for (const ppa of ppas) tally.add(ppa);
  return tally.documents();
}

/**
 * tallyParties one PPA at a time: a reindex feeds it the PPAs as it reads them back, page by page, so that it holds
 * the parties' tallies and never every PPA at once (the indexer's peak memory stays flat with the records).
 */
export function partyTally(
  foldName: (name: string) => string,
  only?: ReadonlySet<string>,
): { add(ppa: PartyPpa): void; documents(): PartyDocument[] } {
  const tallies = new Map<string, Tally>();
  const add = (ppa: PartyPpa): void => {
    if (!ppa.active) return;
    const parties = partiesOfPpa(ppa);
    for (const [id, { roles, spellings, byRole }] of parties) {
      if (only && !only.has(id)) continue;
      let tally = tallies.get(id);
      if (!tally) {
        tally = {
          byRole: {},
          spellings: new Map(),
          roles: { developer: 0, offtaker: 0, procuring_entity: 0 },
          ppas: 0,
          capacity: 0,
          annual: 0,
          guaranteed: 0,
          disclosed: 0,
          countries: new Map(),
          first: null,
          last: null,
          partners: new Map(),
        };
        tallies.set(id, tally);
      }
      for (const spelling of spellings)
        tally.spellings.set(spelling, (tally.spellings.get(spelling) ?? 0) + 1);
      for (const role of roles) tally.roles[role]++;
      tally.ppas++;
      tally.capacity += ppa.capacity_mw;
      const { annual_payment_obligation_usd: annual, guaranteed_amount_usd: guaranteed } = ppa.fiscal;
      for (const [role, spelling] of Object.entries(byRole) as [PartyRole, string][]) {
        const group = (tally.byRole[role] ??= {
          spellings: new Map(),
          ppas: 0,
          capacity: 0,
          annual: 0,
          guaranteed: 0,
          disclosed: 0,
        });
        group.spellings.set(spelling, (group.spellings.get(spelling) ?? 0) + 1);
        group.ppas++;
        group.capacity += ppa.capacity_mw;
        group.annual += annual ?? 0;
        group.guaranteed += guaranteed ?? 0;
        if (annual !== null || guaranteed !== null) group.disclosed++;
      }
      tally.annual += annual ?? 0;
      tally.guaranteed += guaranteed ?? 0;
      if (annual !== null || guaranteed !== null) tally.disclosed++;
      if (ppa.country_code !== null)
        tally.countries.set(ppa.country_code, (tally.countries.get(ppa.country_code) ?? 0) + 1);
      const year = ppa.financial_close_year;
      if (year !== null) {
        tally.first = tally.first === null ? year : Math.min(tally.first, year);
        tally.last = tally.last === null ? year : Math.max(tally.last, year);
      }
      for (const partner of parties.keys())
        if (partner !== id) tally.partners.set(partner, (tally.partners.get(partner) ?? 0) + 1);
    }
  };
  return { add, documents: () => [...tallies].map(([id, tally]) => partyDocument(id, tally, foldName)) };
}

function roleGroup(group: RoleTally | undefined): RoleGroup | null {
  if (!group) return null;
  const key = [...group.spellings].sort(byCountThenText)[0]![0];
  return {
    key,
    group_key: groupKey(key),
    ppas: group.ppas,
    capacity_mw: group.capacity,
    annual_payment_obligation_usd: group.annual,
    guaranteed_amount_usd: group.guaranteed,
    ppas_with_disclosed_amounts: group.disclosed,
    rounded: {
      capacity_mw: roundMw(group.capacity),
      annual_payment_obligation_usd: roundUsd(group.annual),
      guaranteed_amount_usd: roundUsd(group.guaranteed),
    },
  };
}

function partyDocument(id: string, tally: Tally, foldName: (name: string) => string): PartyDocument {
  const aliases = [...tally.spellings].sort(byCountThenText);
  const name = aliases[0]![0];
  return {
    id,
    name,
    name_sort: foldName(name),
    names_folded: [...new Set(aliases.map(([spelling]) => foldName(spelling)))],
    aliases: aliases.map(([spelling, ppas]) => ({ name: spelling, ppas })),
    roles: tally.roles,
    role_names: PARTY_ROLE_NAMES.filter((role) => tally.roles[role] > 0),
    ppas: tally.ppas,
    capacity_mw: tally.capacity,
    annual_payment_obligation_usd: tally.annual,
    guaranteed_amount_usd: tally.guaranteed,
    ppas_with_disclosed_amounts: tally.disclosed,
    countries: [...tally.countries].sort(byCountThenText).map(([code]) => code),
    years: { first: tally.first, last: tally.last },
    partners: [...tally.partners]
      .sort(byCountThenText)
      .slice(0, PARTNERS)
      .map(([partner, ppas]) => ({ id: partner, ppas })),
    by_role: {
      developer: roleGroup(tally.byRole.developer),
      offtaker: roleGroup(tally.byRole.offtaker),
      procuring_entity: roleGroup(tally.byRole.procuring_entity),
    },
  };
}
