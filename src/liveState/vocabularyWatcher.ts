// The vocabulary of the generation being served (src/matching/vocabulary.ts), read in the background: walked
// whole (lookups.ts: vocabularyPage) when the generation watcher sees another index behind the alias, and again
// after a sync's change, at most every RELOAD_AFTER_SYNC_MS (a sync moves few words; the walk reads every
// document). Never on a request's path: an answer takes the vocabulary held at the time, or none before the first
// walk ends. Bounded: past MAX_VOCABULARY_WORDS words, the rarest are let go.
import { generationIndex } from '../../indexContract/dataVersion.js';
import { Vocabulary } from '../matching/vocabulary.js';
import type { GenerationWatcher } from './generationWatcher.js';
import type { VocabularyPage } from './lookups.js';

/** Words held at most: the commonest (a word few PPAs hold is what a rare typo meant least often). */
export const MAX_VOCABULARY_WORDS = 200_000;
/** A sync's change is read into the vocabulary at most this often; another index at once. */
export const RELOAD_AFTER_SYNC_MS = 60_000;
/** After a failed walk, the next is tried this much later. */
export const RETRY_MS = 10_000;

export interface VocabularyWatcherOptions {
  /** One page of the live index's vocabulary. */
  page: (after: string | undefined) => Promise<VocabularyPage>;
  /** The generation being served, watched. */
  generation: Pick<GenerationWatcher, 'current' | 'onChange'>;
  maxWords?: number;
  reloadAfterSyncMs?: number;
  retryMs?: number;
  now?: () => number;
}

export class VocabularyWatcher {
  #vocabulary: Vocabulary | undefined;
  /** The generation the vocabulary was read from, and when the walk began. */
  #readFrom: { generation: string; at: number } | undefined;
  #walking: Promise<void> | undefined;
  /** Another walk is wanted once this one ends (the generation moved while walking). */
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #now: () => number;

  constructor(private readonly options: VocabularyWatcherOptions) {
    this.#now = options.now ?? Date.now;
    options.generation.onChange((generation) => {
      if (generation !== null) this.#wanted();
    });
    if (options.generation.current() !== null) this.#wanted();
  }

  /** The vocabulary held now (undefined: none read yet). */
  current(): Vocabulary | undefined {
    return this.#vocabulary;
  }

  /** The walk under way, if any, or one made now (tests, and a first answer's wait at start). */
  read(): Promise<void> {
    this.#walking ??= this.#walk().finally(() => {
      this.#walking = undefined;
      if (this.#again && !this.#closed) {
        this.#again = false;
        this.#wanted();
      }
    });
    return this.#walking;
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  /** The generation moved (or a retry is due): walk now, or later for a sync's change read a short while ago. */
  #wanted(): void {
    if (this.#closed) return;
    if (this.#walking) {
      this.#again = true;
      return;
    }
    const generation = this.options.generation.current();
    const last = this.#readFrom;
    if (generation === null || generation === last?.generation) return;
    const sameIndex = last !== undefined && generationIndex(last.generation) === generationIndex(generation);
    const wait = sameIndex
      ? last.at + (this.options.reloadAfterSyncMs ?? RELOAD_AFTER_SYNC_MS) - this.#now()
      : 0;
    this.#later(Math.max(0, wait));
  }

  #later(ms: number): void {
    clearTimeout(this.#timer);
    if (ms === 0) {
      void this.read();
      return;
    }
    this.#timer = setTimeout(() => this.#wanted(), ms);
    this.#timer.unref();
  }

  async #walk(): Promise<void> {
    const generation = this.options.generation.current();
    if (generation === null) return;
    const at = this.#now();
    try {
      const maxWords = this.options.maxWords ?? MAX_VOCABULARY_WORDS;
      this.#vocabulary = await readVocabulary(this.options.page, maxWords, () => this.#closed);
      this.#readFrom = { generation, at };
    } catch {
      // The last vocabulary is kept; the walk is tried again.
      if (!this.#closed) this.#later(this.options.retryMs ?? RETRY_MS);
    }
  }
}

/**
 * The vocabulary walked page by page (`page`: lookups.ts vocabularyPage), the commonest `maxWords` words of it kept;
 * `stopped`: the walk ends early (its owner closed).
 */
export async function readVocabulary(
  page: (after: string | undefined) => Promise<VocabularyPage>,
  maxWords = MAX_VOCABULARY_WORDS,
  stopped: () => boolean = () => false,
): Promise<Vocabulary> {
  let words: [string, number][] = [];
  let after: string | undefined;
  do {
    const read = await page(after);
    words.push(...read.words);
    if (words.length > 2 * maxWords) words = commonest(words, maxWords);
    after = read.after;
  } while (after !== undefined && !stopped());
  return new Vocabulary(commonest(words, maxWords));
}

const commonest = (words: [string, number][], maxWords: number): [string, number][] =>
  words.length <= maxWords ? words : words.sort((a, b) => b[1] - a[1]).slice(0, maxWords);
