// The list's filters and q, each declared once (src/params/listFilter.ts says what a declaration holds): the
// list, statistics, export, changes and feed take them. Add a filter here and the parameter, its parsed form, its
// clauses, the cursor, the feed's title, the OpenAPI document and docs/api.md's table follow.
import Type from 'typebox';
import { DEVELOPER_KEYWORD_FIELD } from '../../indexContract/fields.js';
import { FLAG_CODES } from '../../indexContract/flags.js';
import { PARTY_IDS_FIELD } from '../../indexContract/parties.js';
import { foldText } from '../../indexContract/text/fold.js';
import type { InvalidParam } from '../http/problem.js';
import { SearchText, wordCount } from '../matching/queryText.js';
import {
  clausesOf,
  cursorBindingOf,
  defineFilter,
  parametersOf,
  readFiltersOf,
  repeatableOf,
  wordsOf,
  type FiltersOf,
  type Query,
} from './listFilter.js';
import { YEAR_FILTER } from './yearFilter.js';

export { MAX_YEAR, MIN_YEAR, type YearRange } from './yearFilter.js';
export type { FacetableFilter, FilterClause } from './listFilter.js';

export const MAX_RISK_FEATURES = 20;
export const MAX_CAPACITY_MW = 100_000;
export const MAX_Q_LENGTH = 200;
/** `q` after accent folding: one character can fold into many ("ﷺ" is 18), and each word costs a clause set. */
export const MAX_FOLDED_Q_LENGTH = 200;
export const MAX_Q_WORDS = 12;
export const MAX_DEVELOPER_LENGTH = 100;
export const MAX_FOLDED_DEVELOPER_LENGTH = 100;
/** Most values a comma-joined token list (technology, tariff, country) may carry. */
export const MAX_LIST_TOKENS = 20;
/** Longest token of a comma-joined list (the longest real one is far shorter). */
export const MAX_TOKEN_LENGTH = 50;
/** A token, or `!` and a token: that value left out. */
const TOKEN_PATTERN = '^!?[a-z0-9_]+$';
const COUNTRY_PATTERN = '^!?[a-z]{2}$';
/** A party id (indexContract/parties.ts), or `!` and one. */
const PARTY_PATTERN = '^!?[a-z0-9]+(?:-[a-z0-9]+)*$';
export const MAX_PARTY_ID_LENGTH = 200;

/** Values chosen (`a,b`) and left out (`!c`); either may be empty, not both. */
export interface Selection {
  chosen: string[];
  left: string[];
}

const token = () =>
  Type.String({
    pattern: TOKEN_PATTERN,
    description: 'a token of lowercase letters, digits and underscores (!token: left out)',
  });
const tokenList = (description: string) =>
  Type.Array(Type.String({ ...token(), maxLength: MAX_TOKEN_LENGTH }), {
    minItems: 1,
    maxItems: MAX_LIST_TOKENS,
    description: `${description} At most ${MAX_LIST_TOKENS} tokens of at most ${MAX_TOKEN_LENGTH} characters.`,
  });

/** The values as chosen and left out (`!value`), each once. */
export function readSelection(values: readonly string[]): Selection {
  const unique = (list: string[]) => [...new Set(list)];
  return {
    chosen: unique(values.filter((value) => !value.startsWith('!'))),
    left: unique(values.filter((value) => value.startsWith('!')).map((value) => value.slice(1))),
  };
}

/**
 * One value of `field` among those chosen and none of those left out, as one clause (its facet leaves it out
 * whole, the values left out included). Only left out: a PPA without a value stays. A value both chosen and left
 * out is taken out of the selection (`wind,hybrid,!hybrid` is wind).
 */
function selectionClause(field: string, { chosen, left }: Selection): Query {
  if (left.length === 0) return { terms: { [field]: chosen } };
  const mustNot = [{ terms: { [field]: left } }];
  return chosen.length === 0
    ? { bool: { must_not: mustNot } }
    : { bool: { filter: [{ terms: { [field]: chosen } }], must_not: mustNot } };
}

function selectionWords(label: string, { chosen, left }: Selection): string[] {
  return [
    ...(chosen.length > 0 ? [`${label} ${chosen.join(' or ')}`] : []),
    ...(left.length > 0 ? [`${label} not ${left.join(' nor ')}`] : []),
  ];
}

/** A filter on one keyword of the index: a value among the chosen, none of those left out. */
function valueFilter<const Name extends 'technology' | 'tariff'>(
  name: Name,
  description: string,
  meaning: string,
) {
  return defineFilter({
    name,
    schema: tokenList(description),
    read: readSelection,
    clauses: (selection: Selection) => [selectionClause(name, selection)],
    bindsCursor: true,
    words: (selection: Selection) => selectionWords(name, selection),
    doc: {
      type:
        name === 'technology'
          ? `token \`[a-z0-9_]+\`, or up to ${MAX_LIST_TOKENS} joined by \`,\`, each at most ${MAX_TOKEN_LENGTH} chars; \`!token\` leaves it out`
          : 'same as technology',
      meaning,
    },
  });
}

/** Whether `q` is one the list takes (its bounds as typed, folded and read): a rewrite of it must be. */
export const isListQ = (q: SearchText): boolean => q.text.length <= MAX_Q_LENGTH && qProblems(q).length === 0;

/** The problems of `q` that only show once it is folded and read (the search sees it so). */
function qProblems(q: SearchText): InvalidParam[] {
  const folded = foldText(q.text);
  if (folded.length > MAX_FOLDED_Q_LENGTH) {
    return [
      {
        name: 'q',
        reason: `is ${folded.length} characters once accents and ligatures are spelled out; at most ${MAX_FOLDED_Q_LENGTH}`,
      },
    ];
  }
  const words = wordCount(q.parsed);
  return words > MAX_Q_WORDS ? [{ name: 'q', reason: `has ${words} words; at most ${MAX_Q_WORDS}` }] : [];
}

/** The developer text is a literal substring: wildcard metacharacters in it must not act as wildcards. */
export function escapeWildcard(text: string): string {
  return text.replace(/[\\*?]/g, (character) => `\\${character}`);
}

const capacity = (description: string) => Type.Number({ minimum: 0, maximum: MAX_CAPACITY_MW, description });

/** Every filter of the list, keyed by its name in `SearchFilters`, in the order clauses and titles list them. */
export const LIST_FILTERS = {
  q: defineFilter({
    name: 'q',
    schema: Type.String({
      minLength: 1,
      maxLength: MAX_Q_LENGTH,
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
    // Read here, once: the parsed form travels with the filters (src/matching/queryText.ts SearchText).
    read: (text: string, problems) => {
      const q = new SearchText(text);
      problems.push(...qProblems(q));
      return q;
    },
    bindsCursor: true,
    bound: (q: SearchText) => q.text,
    words: (q: SearchText) => [`q "${q.text}"`],
    doc: {
      type: `string, trimmed, 1–${MAX_Q_LENGTH} chars`,
      meaning:
        "full text over project name, developer, reference code, location, and the technology's and country's names ([what `q` matches](#what-q-matches)); phrases, `-`, `OR` and field qualifiers ([search syntax](#search-syntax-phrases-left-out-alternatives-one-field))",
    },
  }),
  technology: valueFilter(
    'technology',
    'Technology equals one of these tokens (OR), joined by ",". Trimmed and lowercased; an unknown token matches ' +
      'nothing. A token written !token leaves that technology out; only !tokens: every PPA but those (one without ' +
      'a technology included).',
    'technology equals one of them (OR); the set is open: an unknown value matches nothing, it is not an error; `!` values are taken out of the selection ([below](#values-left-out-and-ranges-of-years))',
  ),
  tariff: valueFilter(
    'tariff',
    'Tariff structure equals one of these tokens (OR), joined by ",". Trimmed and lowercased. !token leaves that ' +
      'tariff out, as for technology.',
    'tariff structure equals one of them (OR); `!` leaves one out',
  ),
  country: defineFilter({
    name: 'country',
    schema: Type.Array(
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
    // The index holds codes upper-cased.
    read: (codes: string[]) => readSelection(codes.map((code) => code.toUpperCase())),
    clauses: (selection: Selection) => [selectionClause('country_code', selection)],
    bindsCursor: true,
    words: (selection: Selection) => selectionWords('country', selection),
    doc: {
      type: `ISO 3166-1 alpha-2, or up to ${MAX_LIST_TOKENS} joined by \`,\` (case-insensitive); \`!code\` leaves it out`,
      meaning: '`country_code` equals one of them (OR); `!` leaves one out. Also a statistics filter.',
    },
  }),
  developer: defineFilter({
    name: 'developer',
    schema: Type.String({
      minLength: 1,
      maxLength: MAX_DEVELOPER_LENGTH,
      description: 'Case- and accent-insensitive substring of the developer name. Trimmed; blank = absent.',
    }),
    read: (developer: string, problems) => {
      if (foldText(developer).length > MAX_FOLDED_DEVELOPER_LENGTH) {
        problems.push({
          name: 'developer',
          reason: `is longer than ${MAX_FOLDED_DEVELOPER_LENGTH} characters once accents and ligatures are spelled out`,
        });
      }
      return developer;
    },
    clauses: (developer: string) => [
      { wildcard: { [DEVELOPER_KEYWORD_FIELD]: { value: `*${escapeWildcard(foldText(developer))}*` } } },
    ],
    bindsCursor: true,
    words: (developer: string) => [`developer "${developer}"`],
    doc: {
      type: `string, 1–${MAX_DEVELOPER_LENGTH} chars`,
      meaning: 'case- and accent-insensitive partial (substring) match on the developer name',
    },
  }),
  year: YEAR_FILTER,
  riskFeatures: defineFilter({
    name: 'risk_features[]',
    aliases: ['risk_features'],
    schema: Type.Array(token(), {
      maxItems: MAX_RISK_FEATURES,
      description:
        `The PPA has all of these risk features (AND). Repeat the key; "risk_features" (no brackets) is the same ` +
        `parameter and a value may also join tokens by ",". At most ${MAX_RISK_FEATURES} values in all (risk_features ` +
        'and risk_features[] count together), counted as ' +
        'sent (a repeated value counts each time). Trimmed and lowercased; an unknown token matches nothing. ' +
        '!token: PPAs without that feature.',
    }),
    read: readSelection,
    // All of those chosen (one clause each), none of those left out.
    clauses: ({ chosen, left }: Selection) => [
      ...chosen.map((feature) => ({ term: { risk_features: feature } })),
      ...left.map((feature) => ({ bool: { must_not: [{ term: { risk_features: feature } }] } })),
    ],
    bindsCursor: true,
    words: ({ chosen, left }: Selection) => [
      ...(chosen.length > 0 ? [`risk features ${chosen.join(' and ')}`] : []),
      ...(left.length > 0 ? [`without risk features ${left.join(' or ')}`] : []),
    ],
    doc: {
      type: `repeatable token, at most ${MAX_RISK_FEATURES}; \`!token\``,
      meaning: 'the PPA has **all** of them (AND), and none written `!token`',
    },
  }),
  minCapacity: defineFilter({
    name: 'min_capacity',
    schema: capacity('Capacity in MW at least this (inclusive). Must not exceed max_capacity.'),
    read: (min: number) => min,
    clauses: (min: number) => [{ range: { capacity_mw: { gte: min } } }],
    bindsCursor: true,
    words: (min: number) => [`at least ${min} MW`],
    // min > max is a problem of min_capacity (the contract names it so).
    check: ({ minCapacity, maxCapacity }) =>
      typeof minCapacity === 'number' && typeof maxCapacity === 'number' && minCapacity > maxCapacity
        ? [{ name: 'min_capacity', reason: 'must not be greater than max_capacity' }]
        : [],
    doc: {
      type: `number ≥ 0, ≤ ${MAX_CAPACITY_MW} (MW)`,
      meaning: 'capacity at least this (inclusive); more than `max_capacity` is an error',
    },
  }),
  maxCapacity: defineFilter({
    name: 'max_capacity',
    schema: capacity('Capacity in MW at most this (inclusive).'),
    read: (max: number) => max,
    clauses: (max: number) => [{ range: { capacity_mw: { lte: max } } }],
    bindsCursor: true,
    words: (max: number) => [`at most ${max} MW`],
    doc: { type: `number ≥ 0, ≤ ${MAX_CAPACITY_MW} (MW)`, meaning: 'capacity at most this (inclusive)' },
  }),
  flags: defineFilter({
    name: 'flags',
    // A closed set: the pattern names every code, so an unknown one is a 400 naming `flags` that lists them.
    schema: Type.Array(
      Type.String({
        pattern: `^!?(?:${FLAG_CODES.join('|')})$`,
        description: `a red flag code (${FLAG_CODES.join(', ')}), or ! and one (left out)`,
      }),
      {
        minItems: 1,
        maxItems: FLAG_CODES.length * 2,
        examples: [['single_bid', 'short_tender']],
        description:
          'The PPA raises one of these red flags (OR), joined by ","; !code leaves PPAs raising it out. The set is ' +
          `closed: an unknown code is 400. Codes: ${FLAG_CODES.join(', ')} (GET /api/v1/flags says what each means).`,
      },
    ),
    read: readSelection,
    clauses: (selection: Selection) => [selectionClause('flags', selection)],
    bindsCursor: true,
    words: (selection: Selection) => selectionWords('flags', selection),
    doc: {
      type: 'red flag code, or several joined by `,`; `!code` leaves it out',
      meaning:
        'the PPA raises one of them (OR), and none written `!code`; the set is closed: an unknown code is 400 listing the codes ([red flags](flags.md))',
    },
  }),
  party: defineFilter({
    name: 'party',
    schema: Type.Array(
      Type.String({
        pattern: PARTY_PATTERN,
        maxLength: MAX_PARTY_ID_LENGTH,
        description: 'a party id (GET /api/v1/parties), or ! and one (left out)',
      }),
      {
        minItems: 1,
        maxItems: MAX_LIST_TOKENS,
        examples: [['kenya-power', '!acme-power-1188253c']],
        description:
          'The PPA names one of these parties (OR) in any role (developer or consortium member, offtaker, ' +
          `procuring entity), by id, joined by ","; at most ${MAX_LIST_TOKENS}. An unknown id matches nothing. ` +
          '!id leaves the PPAs naming that party out.',
      },
    ),
    read: readSelection,
    clauses: (selection: Selection) => [selectionClause(PARTY_IDS_FIELD, selection)],
    bindsCursor: true,
    words: (selection: Selection) => selectionWords('party', selection),
    doc: {
      type: `party id, or up to ${MAX_LIST_TOKENS} joined by \`,\`; \`!id\` leaves it out`,
      meaning:
        'the PPA names one of these parties in any role (OR), and none written `!id`; an unknown id matches nothing ([parties](#parties))',
    },
  }),
  flagged: defineFilter({
    name: 'flagged',
    schema: Type.Unsafe<'true' | 'false'>({
      type: 'string',
      enum: ['true', 'false'],
      description: 'true: PPAs raising at least one red flag; false: PPAs raising none.',
    }),
    read: (flagged: 'true' | 'false') => flagged === 'true',
    clauses: (flagged: boolean) => [
      flagged ? { exists: { field: 'flags' } } : { bool: { must_not: [{ exists: { field: 'flags' } }] } },
    ],
    bindsCursor: true,
    words: (flagged: boolean) => [flagged ? 'flagged' : 'not flagged'],
    doc: { type: '`true` or `false`', meaning: 'at least one red flag (`true`), or none (`false`)' },
  }),
};

/** The filters of a request as parsed: absent ones filter nothing. */
export type SearchFilters = FiltersOf<typeof LIST_FILTERS>;

/** The filters and q as query parameters: the list, statistics, export, changes and feed all take them. */
export const FILTER_PARAMETERS = parametersOf(LIST_FILTERS);

/** The filters whose key repeats (`risk_features[]=a&risk_features[]=b`), and the other names merged into each. */
export const REPEATABLE_FILTERS = repeatableOf(LIST_FILTERS);

/** Typed filters from validated parameters (by parameter name), the problems they hold added to `problems`. */
export function readFilters(
  params: Readonly<Record<string, unknown>>,
  problems: InvalidParam[],
): SearchFilters {
  return readFiltersOf(LIST_FILTERS, params, problems);
}

/** The clauses of the filters set (`q` aside), each marked with the facet that leaves it out. */
export const filterClauses = (filters: SearchFilters) => clausesOf(LIST_FILTERS, filters);

/** The filters' values a cursor walk is bound to. */
export const cursorBinding = (filters: SearchFilters) => cursorBindingOf(LIST_FILTERS, filters);

/** The filters in words, for a feed's title: 'q "kafue", technology solar_pv or hydro, country SN'. */
export const filterWords = (filters: SearchFilters) => wordsOf(LIST_FILTERS, filters);
