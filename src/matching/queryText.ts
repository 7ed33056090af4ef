// `q` as the search and the highlighter both read it: folded (indexContract/text/fold.ts, as the indexer folds the
// documents), cut at white space into the words looked for. A word without a letter or a digit produces no token:
// it would match nothing and sink the whole query, so it is not looked for.
import { foldText } from '../../indexContract/text/fold.js';

/** The words of `q` looked for, folded, in order; the last one is the word still being typed. */
export function typedWords(q: string): string[] {
  const words: string[] = [];
  for (const word of foldText(q.trim()).split(/\s+/u)) if (HAS_TOKEN.test(word)) words.push(word);
  return words;
}

const HAS_TOKEN = /[\p{L}\p{N}]/u;
