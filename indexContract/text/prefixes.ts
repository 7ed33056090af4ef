// Word prefixes of a name for suggestions as you type: every folded word's prefixes, from one letter up to
// PREFIX_MAX_LENGTH. Indexed as keywords (name_prefixes) so that the word being typed can be matched as a prefix
// with a typo (a fuzzy term query on these keywords), which Elasticsearch's own prefix features cannot do: a
// prefix query, index_prefixes and search_as_you_type all match the last word's prefix exactly.
import { foldText } from './fold.js';
import { standardTokens } from './tokenizer.js';

/** Longer typed words are cut to this length before the lookup (the index holds no longer prefixes). */
export const PREFIX_MAX_LENGTH = 20;

/** Every prefix (1 to PREFIX_MAX_LENGTH code points) of every word of `name` (standard tokens), each once. */
export function wordPrefixes(name: string): string[] {
  return tokenPrefixes(standardTokens(foldText(name)));
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * Every prefix (1 to PREFIX_MAX_LENGTH code points) of every token, each once, in order: for a caller that has
 * the tokens already (the indexer cuts a name once for all its forms). A token whose letters are each one UTF-16
 * unit (nearly all) is sliced; only one with a surrogate pair is cut by code point.
 */
export function tokenPrefixes(tokens: Iterable<string>): string[] {
  const prefixes = new Set<string>();
  for (const word of tokens) {
    if (SURROGATE.test(word)) {
      const letters = [...word];
      const longest = Math.min(letters.length, PREFIX_MAX_LENGTH);
      for (let length = 1; length <= longest; length++) prefixes.add(letters.slice(0, length).join(''));
    } else {
      const longest = Math.min(word.length, PREFIX_MAX_LENGTH);
      for (let length = 1; length <= longest; length++) prefixes.add(word.slice(0, length));
    }
  }
  return [...prefixes];
}
