// Which words of `q` name the PPA's technology (its words and synonyms) or its country (its English names), as the
// list's query looks them up in the descriptor fields (textFields.ts): as typed, the word being typed also as a start.
import { technologyWords } from '../../../indexContract/text/canonical.js';
import { countryNameWords } from '../../../indexContract/text/countryNames.js';
import { foldedWords } from '../../../indexContract/text/tokenizer.js';
import type { QueryPlan, QueryWord } from './queryPlan.js';

/** The folded words of each token of a word of `q`. */
const tokenWords = (query: QueryWord) => (query.folded ??= query.tokens.map((token) => foldedWords(token)));

/** Whether a typed word names one of the words `vocabulary` holds (the last word also as a prefix). */
function namesAnyOf(query: QueryWord, vocabulary: readonly string[], last: boolean): boolean {
  // Loops rather than some()/every() with closures: this runs for every technology and country of an answer.
  for (const typedWords of tokenWords(query)) {
    let all = true;
    for (const typed of typedWords) {
      let found = false;
      for (const word of vocabulary) {
        if (word === typed || (last && word.startsWith(typed))) {
          found = true;
          break;
        }
      }
      if (!found) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

/**
 * A technology's words and a country's names' words (technologyWords, countryNameWords: tables made once at import
 * from constants; an unknown technology's words are made on the spot).
 */
export const technologyVocabulary = (technology: string): string[] => technologyWords(technology);
export const countryVocabulary = (code: string): string[] =>
  countryNameWords(code).flatMap((name) => name.split(' '));

/** The words of `q` that name a technology or a country (its vocabulary). */
export function descriptorWords(
  plan: QueryPlan,
  byDescriptor: Map<string, number>,
  key: string,
  vocabulary: (key: string) => readonly string[],
): number {
  let bits = byDescriptor.get(key);
  if (bits === undefined) {
    const words = vocabulary(key);
    bits = 0;
    for (let index = 0; index < plan.words.length; index++) {
      const word = plan.words[index]!;
      // A qualified word is looked for in its field alone.
      if ((plan.everywhere & (1 << index)) !== 0 && namesAnyOf(word, words, word.last)) bits |= 1 << index;
    }
    byDescriptor.set(key, bits);
  }
  return bits;
}
