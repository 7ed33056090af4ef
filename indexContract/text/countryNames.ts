// The English names of a country, from its ISO 3166-1 alpha-2 code: a word of `q` may match the PPA's country
// ("Tobel Switzerland") even where its location does not spell the country out. The indexer writes them into
// `country_names`; names come from CLDR (COUNTRY_NAME_TABLE, taken once from Node's ICU), plus the other names
// people still use (COUNTRY_ALIASES).
import { COUNTRY_NAME_TABLE } from './countryNameTable.js';
import { foldedWords } from './tokenizer.js';

/**
 * Names people use beside CLDR's ("Ivory Coast" for "Côte d’Ivoire", "Turkey" for "Türkiye"). To add one, add
 * it here and reindex.
 */
export const COUNTRY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  AE: ['UAE'],
  CD: ['DR Congo', 'DRC'],
  CI: ['Ivory Coast'],
  CV: ['Cabo Verde'],
  CZ: ['Czech Republic'],
  GB: ['Great Britain', 'Britain'],
  SZ: ['Swaziland'],
  TL: ['East Timor'],
  TR: ['Turkey'],
  US: ['USA', 'America'],
  VN: ['Viet Nam'],
};

/** The country's English names as written ("CI" → "Côte d’Ivoire", "Ivory Coast"); none for null or unknown. */
export function countryNames(code: string | null): string[] {
  if (code === null || !/^[A-Za-z]{2}$/u.test(code)) return [];
  const upper = code.toUpperCase();
  const names = COUNTRY_NAME_TABLE[upper] ?? [];
  if (names.length === 0) return [];
  return [...new Set([...names, ...(COUNTRY_ALIASES[upper] ?? [])])];
}

/**
 * The names' words of every country of the table, by code: made once at import from the constant tables (a few
 * hundred codes), since folding the names for every document would cost more than the rest of the country's part.
 */
const NAME_WORDS_BY_CODE: ReadonlyMap<string, readonly string[]> = new Map(
  Object.keys(COUNTRY_NAME_TABLE).map((code) => [
    code,
    Object.freeze(countryNames(code).map((name) => foldedWords(name).join(' '))),
  ]),
);

/**
 * The country's names as the index holds them: folded words, punctuation as spaces ("cote d ivoire"), so that
 * "Côte d'Ivoire" with either apostrophe, and each word alone ("Ivoire"), meet them; `q` is read the same way.
 */
export function countryNameWords(code: string | null): string[] {
  if (code === null || !/^[A-Za-z]{2}$/u.test(code)) return [];
  return [...(NAME_WORDS_BY_CODE.get(code.toUpperCase()) ?? [])];
}
