// The words the index holds (the `vocabulary` field, indexContract/text/vocabulary.ts), each with how many active
// PPAs hold it: what a `q` that found nothing is rewritten towards (rewrite.ts). Made once per generation in the
// background (src/liveState/vocabularyWatcher.ts) and read by every empty answer, so it is arranged for reading:
// words by length, so that a typed word is compared only with the words a few edits could make of it, and in
// order, so that the word being typed is looked up as a start.
import { formOf, type Form } from './form.js';

/** A word of the vocabulary. */
export interface VocabularyWord {
  form: Form;
  /** Active PPAs holding it. */
  count: number;
}

/** The words of one length, with their letter buckets in one array: what a scan reads of every word first. */
export interface WordsOfLength {
  words: readonly VocabularyWord[];
  /** words[i].form.letterBits, packed. */
  letterBits: Int32Array;
}

const NO_WORDS: WordsOfLength = { words: [], letterBits: new Int32Array(0) };

export class Vocabulary {
  readonly #counts = new Map<string, number>();
  /** Words by their letters (code points): byLetters[n] holds the words of n letters. */
  readonly #byLetters: WordsOfLength[] = [];
  /** Every word, in code-unit order: starts are looked up by bisection. */
  readonly #sorted: string[];

  /** `entries`: each word once, with the active PPAs holding it (zero and below are left out). */
  constructor(entries: Iterable<readonly [string, number]>) {
    const byLetters: VocabularyWord[][] = [];
    for (const [text, count] of entries) {
      if (count <= 0 || this.#counts.has(text)) continue;
      this.#counts.set(text, count);
      const form = formOf(text);
      (byLetters[form.letters] ??= []).push({ form, count });
    }
    for (let letters = 0; letters < byLetters.length; letters++) {
      const words = byLetters[letters] ?? [];
      this.#byLetters[letters] = {
        words,
        letterBits: Int32Array.from(words, (word) => word.form.letterBits),
      };
    }
    this.#sorted = [...this.#counts.keys()].sort();
  }

  /** How many words it holds. */
  get size(): number {
    return this.#counts.size;
  }

  /** Active PPAs holding `word` (0: none). */
  count(word: string): number {
    return this.#counts.get(word) ?? 0;
  }

  /** The words of `letters` letters. */
  withLetters(letters: number): WordsOfLength {
    return this.#byLetters[letters] ?? NO_WORDS;
  }

  /** The longest word's letters. */
  get maxLetters(): number {
    return this.#byLetters.length - 1;
  }

  /** Whether a word starts with `start` (itself included). */
  holdsStart(start: string): boolean {
    const sorted = this.#sorted;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < start) low = middle + 1;
      else high = middle;
    }
    return low < sorted.length && sorted[low]!.startsWith(start);
  }
}

/** An empty vocabulary: an index written before the field, or one not read yet. */
export const NO_VOCABULARY = new Vocabulary([]);
