// Spellings with one letter dropped, shared by the indexer (what it writes into name_dropped_letter and
// name_without_first_letter) and the API (how it looks typed words up), like fold.ts: Elasticsearch's fuzziness
// skips words under five letters, so the typo of a dropped letter in a five-letter word ("Slar" for "Solar",
// "Olar" too) needs this.
import { foldText } from './fold.js';

const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;
const FIVE_LETTERS_OR_MORE = /^\p{L}{5,}$/u;
const SURROGATE = /[\ud800-\udfff]/;

/** The letters of a folded word, by code point only when a letter takes two UTF-16 units. */
function lettersOf(word: string): string[] | null {
  return SURROGATE.test(word) ? [...word] : null;
}

/**
 * Every folded word of five letters or more without its first letter: "Solar Park" → olar. Kept apart from
 * droppedLetterSpellings, whose lookups (suggestions, two typos) assume the first letter was typed right.
 */
export function withoutFirstLetter(text: string): string[] {
  return withoutFirstLetterOfFolded(foldText(text));
}

/** withoutFirstLetter of a text already folded (foldText). */
export function withoutFirstLetterOfFolded(folded: string): string[] {
  const spellings = new Set<string>();
  for (const word of folded.split(WORD_SEPARATORS)) {
    if (!FIVE_LETTERS_OR_MORE.test(word)) continue;
    const letters = lettersOf(word);
    spellings.add(letters ? letters.slice(1).join('') : word.slice(1));
  }
  return [...spellings];
}

/**
 * Every folded word of five letters or more, each with one letter but the first dropped:
 * "Solar Park" → slar, soar, solr, sola. Words with digits or punctuation are left alone.
 */
export function droppedLetterSpellings(text: string): string[] {
  return droppedLetterSpellingsOfFolded(foldText(text));
}

/** droppedLetterSpellings of a text already folded (foldText). */
export function droppedLetterSpellingsOfFolded(folded: string): string[] {
  const spellings = new Set<string>();
  for (const word of folded.split(WORD_SEPARATORS)) {
    if (!FIVE_LETTERS_OR_MORE.test(word)) continue;
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
