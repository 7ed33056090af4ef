// The filter parameters shared by the list and the statistics endpoints: schema fragments, descriptions,
// and the typed filter object both search builders take.
import { foldText } from '../../indexContract/text/fold.js';
import Type from 'typebox';
import type { InvalidParam } from '../http/problem.js';
import { parseQuery, wordCount } from '../matching/queryText.js';
import { withDefault, type ParamsOf } from './declare.js';

/** A token, or `!` and a token: that value left out. */
export const TOKEN_PATTERN = '^!?[a-z0-9_]+$';
export const MAX_RISK_FEATURES = 20;
export const MAX_CAPACITY_MW = 100_000;
/** `q` after accent folding: one character can fold into many ("ﷺ" is 18), and each word costs a clause set. */
export const MAX_FOLDED_Q_LENGTH = 200;
export const MAX_Q_WORDS = 12;
export const MAX_FOLDED_DEVELOPER_LENGTH = 100;
/** Most values a comma-joined token list (technology, tariff, country) may carry. */
export const MAX_LIST_TOKENS = 20;
const COUNTRY_PATTERN = '^!?[a-z]{2}$';
/** The years a financial close may have (the record schema's bounds). */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;

/** Filters after validation: absent fields filter nothing. Tokens are lowercased, text is trimmed. */
export interface SearchFilters {
  q?: string;
  technology?: string[];
  tariff?: string[];
  /** ISO 3166-1 alpha-2 codes, uppercased as the index holds them. */
  country?: string[];
  developer?: string;
  year?: number;
  /** `year=a..b`: the financial close year in [from, to], an end open when absent; no year is never in a range. */
  years?: { from?: number; to?: number };
  riskFeatures?: string[];
  minCapacity?: number;
  maxCapacity?: number;
  /** The values written `!value`: left out. Present only when some are. */
  excluded?: ExcludedValues;
}

/**
 * Values left out. technology, tariff, country: a PPA whose value is one of them is left out (one without a value
 * stays); risk features: a PPA with any of them is left out.
 */
export interface ExcludedValues {
  technology?: string[];
  tariff?: string[];
  country?: string[];
  riskFeatures?: string[];
}

/** Longest token of a comma-joined list (the longest real one is far shorter). */
export const MAX_TOKEN_LENGTH = 50;
const token = () =>
  Type.String({
    pattern: TOKEN_PATTERN,
    description: 'a token of lowercase letters, digits and underscores (!token: left out)',
  });
const tokenList = (description: string) =>
  Type.Optional(
    Type.Array(Type.String({ ...token(), maxLength: MAX_TOKEN_LENGTH }), {
      minItems: 1,
      maxItems: MAX_LIST_TOKENS,
      description: `${description} At most ${MAX_LIST_TOKENS} tokens of at most ${MAX_TOKEN_LENGTH} characters.`,
    }),
  );

/** The filters and q: the list, statistics, export, changes and feed all take them. */
export const FILTER_PARAMETERS = {
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Full-text search over project name, developer, reference code and location; every word must match there or ' +
        "name the PPA's technology (solar, PV, hydropower, CCGT, …) or country (its English name), below a name match. " +
        'Case- and accent-insensitive, tolerant of one typo in words of five letters or more (the first letter ' +
        'included), prefix match on the last word. Trimmed; blank = absent. ' +
        'Precise forms: "a phrase" (these words next to each other, exactly); -word or -"phrase" (leave out every ' +
        'PPA it matches, as a whole word); a OR b (either; upper-case OR between two terms); name:, developer:, ' +
        'location:, code: before a word or a phrase (that field alone; also after - and inside OR). What is not an ' +
        'operator as written is text; a q that only leaves out orders as without q. ' +
        `At most ${MAX_Q_WORDS} words (those of phrases, alternatives and exclusions included) and ` +
        `${MAX_FOLDED_Q_LENGTH} characters also once accents and ligatures are ` +
        'spelled out; words longer than 30 letters match exactly.',
    }),
  ),
  technology: tokenList(
    'Technology equals one of these tokens (OR), joined by ",". Trimmed and lowercased; an unknown token matches ' +
      'nothing. A token written !token leaves that technology out; only !tokens: every PPA but those (one without ' +
      'a technology included).',
  ),
  tariff: tokenList(
    'Tariff structure equals one of these tokens (OR), joined by ",". Trimmed and lowercased. !token leaves that ' +
      'tariff out, as for technology.',
  ),
  country: Type.Optional(
    Type.Array(
      Type.String({
        pattern: COUNTRY_PATTERN,
        description: 'a two-letter country code (ISO 3166-1 alpha-2), or ! and one (that country left out)',
      }),
      {
        minItems: 1,
        maxItems: MAX_LIST_TOKENS,
        description:
          `Country (ISO 3166-1 alpha-2) equals one of these codes (OR), joined by ",", case-insensitive; at most ` +
          `${MAX_LIST_TOKENS}. An unknown code matches nothing. !code leaves that country out; only !codes: every ` +
          'PPA but those, one whose country is unknown included.',
      },
    ),
  ),
  developer: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Case- and accent-insensitive substring of the developer name. Trimmed; blank = absent.',
    }),
  ),
  year: Type.Optional(
    Type.String({
      maxLength: 10,
      examples: ['2015', '2010..2015', '2015..', '..2005'],
      description:
        `Financial close year equals it (${MIN_YEAR}–${MAX_YEAR}), or is in a range of years: 2010..2015 ` +
        '(inclusive), 2015.. or ..2005 (one end open). A PPA without a year is in no range. A range that starts ' +
        'after it ends is 400.',
    }),
  ),
  'risk_features[]': Type.Optional(
    Type.Array(token(), {
      maxItems: MAX_RISK_FEATURES,
      description:
        `The PPA has all of these risk features (AND). Repeat the key; "risk_features" (no brackets) is the same ` +
        `parameter and a value may also join tokens by ",". At most ${MAX_RISK_FEATURES} values in all (risk_features ` +
        'and risk_features[] count together), counted as ' +
        'sent (a repeated value counts each time). Trimmed and lowercased; an unknown token matches nothing. ' +
        '!token: PPAs without that feature.',
    }),
  ),
  min_capacity: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: MAX_CAPACITY_MW,
      description: 'Capacity in MW at least this (inclusive). Must not exceed max_capacity.',
    }),
  ),
  max_capacity: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: MAX_CAPACITY_MW,
      description: 'Capacity in MW at most this (inclusive).',
    }),
  ),
};

/** The filter whose key repeats (`risk_features[]=a&risk_features[]=b`), and the other name merged into it. */
export const REPEATABLE_FILTERS = { 'risk_features[]': ['risk_features'] } as const;

/** The filters as parsed (wire names). */
export type FilterParams = Partial<ParamsOf<typeof FILTER_PARAMETERS>>;

/** The list parameters whose values may be left out with `!`, by their name in ExcludedValues. */
const EXCLUDABLE = [
  ['technology', 'technology'],
  ['tariff', 'tariff'],
  ['country', 'country'],
  ['risk_features[]', 'riskFeatures'],
] as const;

/**
 * Typed filters from validated parameters (wire names), the problems of values that are valid alone added to
 * `problems`. Repeated values are asked for once.
 */
export function readFilters(params: FilterParams, problems: InvalidParam[]): SearchFilters {
  const filters: SearchFilters = {};
  if (params.q !== undefined) filters.q = params.q;
  const excluded: ExcludedValues = {};
  for (const [name, key] of EXCLUDABLE) {
    const values = params[name];
    if (!values) continue;
    const wanted = key === 'country' ? values.map((code) => code.toUpperCase()) : values;
    const chosen = unique(wanted.filter((value) => !value.startsWith('!')));
    const left = unique(wanted.filter((value) => value.startsWith('!')).map((value) => value.slice(1)));
    if (chosen.length > 0) filters[key] = chosen;
    if (left.length > 0) excluded[key] = left;
    const both = chosen.find((value) => left.includes(value));
    if (both !== undefined)
      problems.push({ name, reason: `"${both}" is both chosen and left out (!${both})` });
  }
  if (Object.keys(excluded).length > 0) filters.excluded = excluded;
  if (params.developer !== undefined) filters.developer = params.developer;
  if (params.year !== undefined) {
    const year = readYear(params.year);
    if ('problem' in year) problems.push({ name: 'year', reason: year.problem });
    else Object.assign(filters, year);
  }
  if (params.min_capacity !== undefined) filters.minCapacity = params.min_capacity;
  if (params.max_capacity !== undefined) filters.maxCapacity = params.max_capacity;
  problems.push(...capacityProblems(filters), ...foldedTextProblems(filters));
  return filters;
}

const YEAR = /^\d{1,4}$/;
const YEAR_RANGE = /^(\d{1,4})?\.\.(\d{1,4})?$/;

/** `year`: one year, or a range of them (2010..2015, 2015.., ..2005). */
export function readYear(text: string): Pick<SearchFilters, 'year' | 'years'> | { problem: string } {
  const inBounds = (year: number) => year >= MIN_YEAR && year <= MAX_YEAR;
  const outOfBounds = `must be between ${MIN_YEAR} and ${MAX_YEAR}`;
  if (YEAR.test(text)) {
    const year = Number(text);
    return inBounds(year) ? { year } : { problem: outOfBounds };
  }
  const range = YEAR_RANGE.exec(text);
  if (range === null || (range[1] === undefined && range[2] === undefined)) {
    return { problem: 'must be a year, or a range of years: 2010..2015, 2015.. or ..2005' };
  }
  const from = range[1] === undefined ? undefined : Number(range[1]);
  const to = range[2] === undefined ? undefined : Number(range[2]);
  if ((from !== undefined && !inBounds(from)) || (to !== undefined && !inBounds(to)))
    return { problem: outOfBounds };
  if (from !== undefined && to !== undefined && from > to) {
    return { problem: `the range starts after it ends (${from} > ${to})` };
  }
  return { years: { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) } };
}

/** The bounds that hold after folding, as the search sees the text. */
export function foldedTextProblems(filters: SearchFilters): { name: string; reason: string }[] {
  const problems: { name: string; reason: string }[] = [];
  if (filters.q !== undefined) {
    const folded = foldText(filters.q);
    const words = wordCount(parseQuery(filters.q));
    if (folded.length > MAX_FOLDED_Q_LENGTH) {
      problems.push({
        name: 'q',
        reason: `is ${folded.length} characters once accents and ligatures are spelled out; at most ${MAX_FOLDED_Q_LENGTH}`,
      });
    } else if (words > MAX_Q_WORDS) {
      problems.push({ name: 'q', reason: `has ${words} words; at most ${MAX_Q_WORDS}` });
    }
  }
  if (filters.developer !== undefined && foldText(filters.developer).length > MAX_FOLDED_DEVELOPER_LENGTH) {
    problems.push({
      name: 'developer',
      reason: `is longer than ${MAX_FOLDED_DEVELOPER_LENGTH} characters once accents and ligatures are spelled out`,
    });
  }
  return problems;
}

/** min > max is a problem of min_capacity (the contract names it so). */
export function capacityProblems(filters: SearchFilters): { name: string; reason: string }[] {
  const { minCapacity, maxCapacity } = filters;
  if (minCapacity !== undefined && maxCapacity !== undefined && minCapacity > maxCapacity) {
    return [{ name: 'min_capacity', reason: 'must not be greater than max_capacity' }];
  }
  return [];
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** `highlight`: the list and suggest both take it (src/matching/highlight/). */
export const HIGHLIGHT_PARAMETER = withDefault(
  Type.Unsafe<'true' | 'false'>({
    type: 'string',
    enum: ['true', 'false'],
    description:
      'true: each item with a q gains `highlights`, why it matched: for each searched field that matched, the ' +
      '[start, end) spans of the served value (UTF-16 code units, as String.prototype.slice takes them) of the words ' +
      'a word of q names, typos, accents, joined or split words, numerals and abbreviations included; ' +
      'technology/country_code true when a word named those instead. false (the default) or absent: no highlights.',
  }),
  'false',
);
