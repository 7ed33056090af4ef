// Spellings with one letter dropped, shared by the indexer (what it writes into the dropped-letter and
// first-letter fields, indexContract/fields.ts) and the API (how it looks typed words up), like fold.ts:
// Elasticsearch's fuzziness allows no typo under TYPO_MIN_LETTERS, so the typo of a dropped letter in a word of
// that length ("Slar" for "Solar", "Olar" too) needs these. A name word is taken apart as tokenParts cuts it.
import { foldText } from './fold.js';
import { standardTokens, tokenParts } from './tokenizer.js';

/**
 * No typo under this many letters: Elasticsearch's fuzziness (src/matching/typoRules.ts, which reads it) starts
 * here, and the indexer writes the dropped-letter spellings of the name words this long or longer, so that a
 * typed word one letter short of it still finds them.
 */
export const TYPO_MIN_LETTERS = 5;

/** A name word the spellings are made of: letters only, TYPO_MIN_LETTERS of them or more. */
const SPELLED_WORD = new RegExp(`^\\p{L}{${TYPO_MIN_LETTERS},}$`, 'u');
const SURROGATE = /[\ud800-\udfff]/;

/** The letters of a folded word, by code point only when a letter takes two UTF-16 units. */
function lettersOf(word: string): string[] | null {
  return SURROGATE.test(word) ? [...word] : null;
}

/** The words the spellings are made of, in order: the parts of the tokens that are long enough, letters only. */
const spelledWords = (tokens: readonly string[]): string[] =>
  tokenParts(tokens).filter((word) => SPELLED_WORD.test(word));

/**
 * Every folded word of TYPO_MIN_LETTERS letters or more without its first letter: "Solar Park" → olar. Kept apart from
 * droppedLetterSpellings, whose lookups (suggestions, two typos) assume the first letter was typed right.
 */
export function withoutFirstLetter(text: string): string[] {
  return withoutFirstLetterOfTokens(standardTokens(foldText(text)));
}

/** withoutFirstLetter of a text already folded and cut into standard tokens. */
export function withoutFirstLetterOfTokens(tokens: readonly string[]): string[] {
  const spellings = new Set<string>();
  for (const word of spelledWords(tokens)) {
    const letters = lettersOf(word);
    spellings.add(letters ? letters.slice(1).join('') : word.slice(1));
  }
  return [...spellings];
}

/**
 * Every folded word of TYPO_MIN_LETTERS letters or more, each with one letter but the first dropped:
 * "Solar Park" → slar, soar, solr, sola. Words with digits or punctuation are left alone.
 */
export function droppedLetterSpellings(text: string): string[] {
  return droppedLetterSpellingsOfTokens(standardTokens(foldText(text)));
}

/** droppedLetterSpellings of a text already folded and cut into standard tokens. */
export function droppedLetterSpellingsOfTokens(tokens: readonly string[]): string[] {
  const spellings = new Set<string>();
  for (const word of spelledWords(tokens)) {
    // Slicing the string is exact when every letter is one UTF-16 unit; otherwise drop whole code points.
    const letters = lettersOf(word);
    const length = letters ? letters.length : word.length;
    for (let dropped = 1; dropped < length; dropped++) {
      spellings.add(
        letters
          ? letters.slice(0, dropped).join('') + letters.slice(dropped + 1).join('')
          : word.slice(0, dropped) + word.slice(dropped + 1),
      );
    }
  }
  return [...spellings];
}
