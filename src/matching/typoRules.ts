// The typo table: how many typos a typed word may carry, by its length and by where it is looked for. The list's
// and suggest's queries (src/queries/textQuery.ts, suggestSearch.ts) are built from it, and the highlighter
// (highlight/) judges the served values by it, so that a word is marked exactly where the search let it match.

/** No typo allowed under this many letters: one from here. */
export const TYPO_MIN_LETTERS = 5;
/** Two typos from this many letters (fuzziness alone). */
export const TWO_TYPOS_MIN_LETTERS = 8;
/** Elasticsearch's fuzziness for the rules above. */
export const FUZZINESS = `AUTO:${TYPO_MIN_LETTERS},${TWO_TYPOS_MIN_LETTERS}`;
/** Longer words match exactly: no typo tolerance, no spelling variants (each would multiply the query's cost). */
export const MAX_TYPO_WORD_LETTERS = 30;
/**
 * A letter dropped from a five-letter word leaves four, too short for fuzziness ("Slar" for "Solar"): typed words
 * of four letters or more are looked up among the name words with a letter dropped.
 */
export const DROPPED_LETTER_MIN_LETTERS = 4;
/**
 * Two typos in a word too short for fuzziness's two: six or seven typed letters, one edit from a longer name
 * word with a letter dropped.
 */
export const TWO_TYPOS_WORD_LETTERS = [6, 7] as const;

/** The word being typed may be the start of a word with one typo from this many letters (suggest's fuzzy prefixes). */
export const PREFIX_TYPO_MIN_LETTERS = DROPPED_LETTER_MIN_LETTERS;

/** A typed word may join two name words, or two typed words one name word, from this many letters (joined). */
export const JOINED_MIN_LETTERS = 5;

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
  const fuzziness = letters >= TWO_TYPOS_MIN_LETTERS ? 2 : letters >= TYPO_MIN_LETTERS ? 1 : 0;
  if (rules === 'text') return fuzziness;
  if (rules === 'list' && fuzziness < 2 && letters >= TWO_TYPOS_WORD_LETTERS[0] && longer) return 2;
  if (rules === 'suggest' && fuzziness === 2) return 1;
  if (fuzziness > 0) return fuzziness;
  return letters >= DROPPED_LETTER_MIN_LETTERS && longer ? 1 : 0;
}
