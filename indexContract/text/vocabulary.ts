// The words `q` is looked for among, as one list per document (`vocabulary`): what the API rewrites a `q` that
// found nothing towards (src/matching/rewrite.ts), counting how many active PPAs hold each word. The words the four
// text fields are cut into (the name's also in their canonical forms: "pv" is "photovoltaic" too), the
// technology's words and the country's names; only words that hold a letter: a number is never what a typo meant.
import { foldedWords, standardTokens } from './tokenizer.js';

const HOLDS_LETTER = /\p{L}/u;

/** What a document's vocabulary is made of, each already folded (indexContract/text/fold.ts). */
export interface VocabularySources {
  /** The name's standard tokens. */
  nameTokens: readonly string[];
  /** The name's canonical words. */
  canonicalName: readonly string[];
  /** The developer, the location and the reference code, folded. */
  texts: readonly string[];
  /** The technology's words and the country's names, as the document holds them ("cote d ivoire"). */
  descriptors: readonly string[];
}

/** The document's words, each once, in code-point order. */
export function vocabularyWords({
  nameTokens,
  canonicalName,
  texts,
  descriptors,
}: VocabularySources): string[] {
  const words = new Set<string>([...nameTokens, ...canonicalName]);
  for (const text of texts) for (const word of standardTokens(text)) words.add(word);
  for (const descriptor of descriptors) for (const word of foldedWords(descriptor)) words.add(word);
  return [...words].filter((word) => HOLDS_LETTER.test(word)).sort();
}
