// The typo table: how many typos a typed word may carry, by its length and by where it is looked for. The list's
// and suggest's queries (src/queries/textQuery.ts, suggestSearch.ts) are built from it, and the highlighter
// (highlight/) judges the served values by it, so that a word is marked exactly where the search let it match.
// The threshold the indexer depends on too (the dropped-letter spellings it writes) is the index contract's
// (indexContract/text/typos.ts); this table reads it and adds what the query alone needs.
import { TYPO_MIN_LETTERS } from '../../indexContract/text/typos.js';

/** No typo allowed under this many letters: one from here. */
export { TYPO_MIN_LETTERS };
/** Two typos from this many letters (fuzziness alone). */
export const TWO_TYPOS_MIN_LETTERS = 8;
/** The most typos any rule allows a word. */
export const MAX_TYPOS = 2;
/** Elasticsearch's fuzziness for the rules above. */
export const FUZZINESS = `AUTO:${TYPO_MIN_LETTERS},${TWO_TYPOS_MIN_LETTERS}`;
/** Elasticsearch's fuzziness of one typo whatever the length: the whole-name, two-typos and suggest lookups. */
export const ONE_TYPO = 1;
/**
 * The fuzzy lookups of the name's spellings and prefixes take the first letter as typed (prefix_length): the
 * highlighter compares first letters so (names.ts).
 */
export const FIRST_LETTER_AS_TYPED = 1;
/** Longer words match exactly: no typo tolerance, no spelling variants (each would multiply the query's cost). */
export const MAX_TYPO_WORD_LETTERS = 30;
/**
 * A letter dropped from a word of TYPO_MIN_LETTERS leaves one fewer, too short for fuzziness ("Slar" for
 * "Solar"): typed words of this many letters or more are looked up among the name words with a letter dropped.
 */
export const DROPPED_LETTER_MIN_LETTERS = TYPO_MIN_LETTERS - 1;
/**
 * Two typos in a word too short for fuzziness's two: six or seven typed letters, one edit from a longer name
 * word with a letter dropped.
 */
export const TWO_TYPOS_WORD_LETTERS = [6, 7] as const;

/** The word being typed may be the start of a word with one typo from this many letters (suggest's fuzzy prefixes). */
export const PREFIX_TYPO_MIN_LETTERS = DROPPED_LETTER_MIN_LETTERS;

/** A typed word may join two name words, or two typed words one name word, from this many letters (joined). */
export const JOINED_MIN_LETTERS = 5;

/** The name may start with what was typed, however it is spaced or written, from this many letters (compact). */
export const NAME_START_MIN_LETTERS = 4;

/** The all-words-in-name bonus allows typos behind this many letters as typed (a cheaper fuzzy expansion). */
export const ALL_WORDS_PREFIX_LENGTH = 2;

/** A lookup's typo tolerance as Elasticsearch's fuzzy, match and multi_match clauses take it. */
export interface TypoTolerance {
  fuzziness: typeof ONE_TYPO | typeof FUZZINESS;
  prefix_length?: number;
}

/** The tolerance of `fuzziness`, its first `prefixLength` letters as typed when given: the one place it is written. */
export function typoTolerance(fuzziness: TypoTolerance['fuzziness'], prefixLength?: number): TypoTolerance {
  return prefixLength === undefined ? { fuzziness } : { fuzziness, prefix_length: prefixLength };
}

/**
 * What was searched: the list's `q` searches the four text fields and the descriptors (technology, country), one
 * typo from five letters (two from eight); suggest searches the project name only, one typo from five letters.
 */
export type MatchMode = 'list' | 'suggest';

/**
 * The typo rules a word is compared by: its mode's in names; 'text' in the developer and the location (the list
 * looks for a word there as typed, with the fuzziness, or the word being typed as a start, and for nothing else);
 * 'exact' in the reference code (as typed, or the start of the word being typed).
 */
export type TypoRules = MatchMode | 'text' | 'exact';

/**
 * The typos a typed word of `letters` letters may carry against a word `targetLetters` long: the fuzziness (one
 * from five letters, two from eight), a dropped letter from four typed letters (the dropped-letter and
 * first-letter spellings), two typos in six or seven typed letters against a longer word (the list's name only);
 * suggest one from five letters (a dropped letter from four); text the fuzziness alone; exact none.
 */
export function allowedTypos(letters: number, targetLetters: number, rules: TypoRules): number {
  if (letters > MAX_TYPO_WORD_LETTERS || rules === 'exact') return 0;
  const longer = targetLetters > letters;
  const fuzziness = letters >= TWO_TYPOS_MIN_LETTERS ? MAX_TYPOS : letters >= TYPO_MIN_LETTERS ? ONE_TYPO : 0;
  if (rules === 'text') return fuzziness;
  if (rules === 'list' && fuzziness < MAX_TYPOS && letters >= TWO_TYPOS_WORD_LETTERS[0] && longer)
    return MAX_TYPOS;
  if (rules === 'suggest' && fuzziness === MAX_TYPOS) return ONE_TYPO;
  if (fuzziness > 0) return fuzziness;
  return letters >= DROPPED_LETTER_MIN_LETTERS && longer ? ONE_TYPO : 0;
}
