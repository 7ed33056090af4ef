// The parties' contract in plain JavaScript over a set of records (docs/api.md, "Parties"): the oracle the API's
// parties are checked against. Written apart from indexContract/parties.ts (the consortium rule is the roll-ups'
// oracle's, test/support/groupsOracle.ts), so that the two can disagree.
import { createHash } from 'node:crypto';
import type { PpaRecord } from '../../indexContract/record.js';
import { members } from './groupsOracle.js';

const spaced = (text: string) => text.split(/\s+/u).filter(Boolean).join(' ');

/** Case, accents and runs of spaces aside. */
export function keyByHand(name: string): string {
  const extra: Record<string, string> = {
    ß: 'ss',
    æ: 'ae',
    œ: 'oe',
    ø: 'o',
    ł: 'l',
    đ: 'd',
    ð: 'd',
    þ: 'th',
    ı: 'i',
  };
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (letter) => extra[letter] ?? letter);
  return spaced(folded);
}

/** The id: a-z and digits joined by "-"; a key that is not just such words adds 8 hex digits of its SHA-256. */
export function partyIdByHand(name: string): string {
  const key = keyByHand(name);
  const slug = key
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('-');
  if (slug !== '' && slug.split('-').join(' ') === key) return slug;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return slug === '' ? `p-${hash}` : `${slug}-${hash}`;
}

export type Role = 'developer' | 'offtaker' | 'procuring_entity';

export interface OracleParty {
  id: string;
  name: string;
  aliases: { name: string; ppas: number }[];
  roles: Record<Role, number>;
  ppas: number;
  capacity_mw: number;
  annual_payment_obligation_usd: number;
  guaranteed_amount_usd: number;
  ppas_with_disclosed_amounts: number;
  countries: string[];
  years: { first: number | null; last: number | null };
  /** Every partner and the PPAs shared (the API shows the first 10, most first, ties by id). */
  partners: Map<string, number>;
  slugs: Set<string>;
}

const byCountThenText = (a: [string, number], b: [string, number]) =>
  b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** Each party of the published, active records: its names, roles and figures, summed PPA by PPA. */
export function partiesByHand(records: readonly PpaRecord[]): Map<string, OracleParty> {
  const spellings = new Map<string, Map<string, number>>();
  const countries = new Map<string, Map<string, number>>();
  const parties = new Map<string, OracleParty>();
  for (const record of records) {
    if (!record.published || !record.active) continue;
    const named: [Role, string][] = [
      ...members(record.developer).map((name): [Role, string] => ['developer', name]),
      ...[record.offtaker?.name]
        .filter((name): name is string => !!name && spaced(name) !== '')
        .map((name): [Role, string] => ['offtaker', spaced(name)]),
      ...[record.procurement?.procuring_entity]
        .filter((name): name is string => !!name && spaced(name) !== '')
        .map((name): [Role, string] => ['procuring_entity', spaced(name)]),
    ];
    const here = new Map<string, { roles: Set<Role>; names: Set<string> }>();
    for (const [role, name] of named) {
      const id = partyIdByHand(name);
      const entry = here.get(id) ?? { roles: new Set<Role>(), names: new Set<string>() };
      entry.roles.add(role);
      entry.names.add(name);
      here.set(id, entry);
    }
    for (const [id, { roles, names }] of here) {
      let party = parties.get(id);
      if (!party) {
        party = {
          id,
          name: '',
          aliases: [],
          roles: { developer: 0, offtaker: 0, procuring_entity: 0 },
          ppas: 0,
          capacity_mw: 0,
          annual_payment_obligation_usd: 0,
          guaranteed_amount_usd: 0,
          ppas_with_disclosed_amounts: 0,
          countries: [],
          years: { first: null, last: null },
          partners: new Map(),
          slugs: new Set(),
        };
        parties.set(id, party);
        spellings.set(id, new Map());
        countries.set(id, new Map());
      }
      for (const name of names) spellings.get(id)!.set(name, (spellings.get(id)!.get(name) ?? 0) + 1);
      for (const role of roles) party.roles[role]++;
      party.ppas++;
      party.slugs.add(record.slug);
      party.capacity_mw += record.capacity_mw;
      const annual = record.fiscal?.annual_payment_obligation_usd ?? null;
      const guaranteed = record.fiscal?.guaranteed_amount_usd ?? null;
      party.annual_payment_obligation_usd += annual ?? 0;
      party.guaranteed_amount_usd += guaranteed ?? 0;
      if (annual !== null || guaranteed !== null) party.ppas_with_disclosed_amounts++;
      if (record.country_code) {
        const code = record.country_code.toUpperCase();
        countries.get(id)!.set(code, (countries.get(id)!.get(code) ?? 0) + 1);
      }
      const year = record.financial_close_year ?? null;
      if (year !== null) {
        party.years.first = party.years.first === null ? year : Math.min(party.years.first, year);
        party.years.last = party.years.last === null ? year : Math.max(party.years.last, year);
      }
      for (const other of here.keys())
        if (other !== id) party.partners.set(other, (party.partners.get(other) ?? 0) + 1);
    }
  }
  for (const [id, party] of parties) {
    const aliases = [...spellings.get(id)!].sort(byCountThenText);
    party.name = aliases[0]![0];
    party.aliases = aliases.map(([name, ppas]) => ({ name, ppas }));
    party.countries = [...countries.get(id)!].sort(byCountThenText).map(([code]) => code);
  }
  return parties;
}

/** The first ten partners as the API shows them: most PPAs shared first, ties by id. */
export const topPartners = (party: OracleParty): { id: string; ppas: number }[] =>
  [...party.partners]
    .sort(byCountThenText)
    .slice(0, 10)
    .map(([id, ppas]) => ({ id, ppas }));
