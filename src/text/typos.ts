// Spellings with one letter dropped, shared by the indexer (what it writes into name_dropped_letter) and the API
// (how it looks typed words up), like fold.ts: Elasticsearch's fuzziness skips words under five letters, so the
// typo of a dropped letter in a five-letter word ("Slar" for "Solar") needs this.
import { foldText } from './fold.js';

/**
 * Every folded word of five letters or more, each with one letter but the first dropped:
 * "Solar Park" → slar, soar, solr, sola. Words with digits or punctuation are left alone.
 */
export function droppedLetterSpellings(text: string): string[] {
  const spellings = new Set<string>();
  for (const word of foldText(text).split(/[^\p{L}\p{N}]+/u)) {
    if (!/^\p{L}{5,}$/u.test(word)) continue;
    const letters = [...word];
    for (let dropped = 1; dropped < letters.length; dropped++) {
      spellings.add([...letters.slice(0, dropped), ...letters.slice(dropped + 1)].join(''));
    }
  }
  return [...spellings];
}
