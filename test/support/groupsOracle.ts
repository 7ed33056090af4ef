// The roll-ups' contract in plain JavaScript over a set of records: every dimension's groups added up PPA by PPA
// (the oracle the API's data.groups are checked against). The consortium rule is written again here, apart from
// indexContract/counterparties.ts, so that the two can disagree.
import type { PpaRecord } from '../../indexContract/record.js';
import { foldText } from '../../indexContract/text/fold.js';

export const DIMENSIONS = [
  'technology',
  'tariff',
  'country',
  'year',
  'risk_feature',
  'developer',
  'offtaker',
  'offtaker_type',
  'procuring_entity',
  'procurement_method',
  'currency',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

type Key = string | number | null;

export interface OracleGroup {
  key: Key;
  ppas: number;
  capacity_mw: number;
  annual_payment_obligation_usd: number;
  guaranteed_amount_usd: number;
  ppas_with_disclosed_amounts: number;
}

const spaced = (text: string) => text.split(/\s+/u).filter(Boolean).join(' ');

/** The consortium rule, by hand: cut at ";" always, at "/" unless one lone letter stands on each side. */
export function members(developer: string): string[] {
  const parts: string[] = [];
  let current = '';
  const isLetter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c);
  const chars = [...developer];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const loneBefore = isLetter(chars[i - 1]) && !isLetter(chars[i - 2]);
    const loneAfter = isLetter(chars[i + 1]) && !isLetter(chars[i + 2]);
    if (c === ';' || (c === '/' && !(loneBefore && loneAfter))) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  const seen = new Set<string>();
  return parts
    .map((part) => spaced(part.replace(/\(\s*\d+(?:[.,]\d+)?\s*%\s*\)\s*$/u, '')))
    .filter((part) => {
      const key = foldText(part);
      if (part === '' || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function valuesOf(record: PpaRecord, dimension: Dimension): Key[] {
  const one = (value: string | number | null | undefined): Key[] =>
    value === null || value === undefined || (typeof value === 'string' && spaced(value) === '')
      ? [null]
      : [typeof value === 'string' ? spaced(value) : value];
  switch (dimension) {
    case 'technology':
      return one(record.technology);
    case 'tariff':
      return one(record.tariff);
    case 'country':
      return one(record.country_code);
    case 'year':
      return one(record.financial_close_year);
    case 'risk_feature':
      return record.risk_features?.length ? [...new Set(record.risk_features)] : [null];
    case 'developer': {
      const found = members(record.developer);
      return found.length > 0 ? found : [null];
    }
    case 'offtaker':
      return one(record.offtaker?.name);
    case 'offtaker_type':
      return one(record.offtaker?.type);
    case 'procuring_entity':
      return one(record.procurement?.procuring_entity);
    case 'procurement_method':
      return one(record.procurement?.method);
    case 'currency':
      return one(record.contract?.currency);
  }
}

const NAMES: ReadonlySet<Dimension> = new Set([
  'developer',
  'offtaker',
  'offtaker_type',
  'procuring_entity',
  'procurement_method',
  'currency',
]);

/** Every group of `dimension` over `records`, unrounded, the key shown in its most common spelling. */
export function oracleGroups(records: readonly PpaRecord[], dimension: Dimension): OracleGroup[] {
  const groups = new Map<Key, OracleGroup & { spellings: Map<string, number> }>();
  for (const record of records) {
    for (const value of valuesOf(record, dimension)) {
      const key = NAMES.has(dimension) && typeof value === 'string' ? foldText(value) : value;
      let group = groups.get(key);
      if (!group) {
        group = {
          key,
          spellings: new Map(),
          ppas: 0,
          capacity_mw: 0,
          annual_payment_obligation_usd: 0,
          guaranteed_amount_usd: 0,
          ppas_with_disclosed_amounts: 0,
        };
        groups.set(key, group);
      }
      if (typeof value === 'string') group.spellings.set(value, (group.spellings.get(value) ?? 0) + 1);
      const fiscal = record.fiscal ?? {};
      group.ppas += 1;
      group.capacity_mw += record.capacity_mw;
      group.annual_payment_obligation_usd += fiscal.annual_payment_obligation_usd ?? 0;
      group.guaranteed_amount_usd += fiscal.guaranteed_amount_usd ?? 0;
      if (fiscal.annual_payment_obligation_usd != null || fiscal.guaranteed_amount_usd != null)
        group.ppas_with_disclosed_amounts += 1;
    }
  }
  return [...groups.values()].map(({ spellings, ...group }) => {
    const shown = [...spellings].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    return { ...group, key: shown ? shown[0] : group.key };
  });
}
