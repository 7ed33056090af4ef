// What this instance serves now, in one place: the generation behind the alias (its concrete index and data
// version, which the response cache keys on), the change log's head with sync's guard and high-water mark (for
// `changes_since`, the changes operations and readiness), the words its documents hold (for "did you mean"), and
// the rate limiter's store (for readiness). Every lookup of it in Elasticsearch is made here, each bounded in rate:
// the generation every 2 s while the response cache or the vocabulary watches it, the served state at most every
// 2 s and only when asked, the vocabulary once per generation (./generationWatcher.ts, ./servedStateWatcher.ts,
// ./vocabularyWatcher.ts say how long each answer is trusted; ./lookups.ts makes them).
import { peerLookup, type PeerLookup } from '../../indexContract/flags.js';
import type { LimiterHealth } from '../rateLimit/types.js';
import { GenerationWatcher } from './generationWatcher.js';
import type { LiveLookups } from './lookups.js';
import { ServedStateWatcher } from './servedStateWatcher.js';
import { VocabularyWatcher } from './vocabularyWatcher.js';
import type { Vocabulary } from '../matching/vocabulary.js';

export interface LiveStateSources {
  lookups: LiveLookups;
  limiter: { health(): LimiterHealth };
}

/** Generations whose fences are kept: the live one and those a swap just left (a detail read before it). */
const FENCED_GENERATIONS = 4;

export class LiveState {
  /** The change log's head and sync's state. */
  readonly served: ServedStateWatcher;
  /** The peer fences of each generation read from, by concrete index: a generation's fences never change. */
  readonly #fences = new Map<string, Promise<PeerLookup>>();
  #generation: GenerationWatcher | undefined;
  #vocabulary: VocabularyWatcher | undefined;

  constructor(private readonly sources: LiveStateSources) {
    this.served = new ServedStateWatcher({ read: () => sources.lookups.servedState() });
  }

  /** The lookups themselves: readiness asks whether the alias exists, the metrics which index is live. */
  get lookups(): LiveLookups {
    return this.sources.lookups;
  }

  /**
   * The generation being served, watched from the first call on (the response cache asks at start). A move of it
   * makes the next served-state reading a new one, so answers of the new generation carry a head read after it.
   */
  generation(): GenerationWatcher {
    if (!this.#generation) {
      this.#generation = new GenerationWatcher({
        liveGeneration: () => this.sources.lookups.liveGeneration(),
      });
      this.#generation.onChange(() => this.served.invalidate());
    }
    return this.#generation;
  }

  /**
   * Follows the served generation's vocabulary from now on (the app at start: ./vocabularyWatcher.ts), watching the
   * generation; the watcher, once made.
   */
  watchVocabulary(): VocabularyWatcher {
    this.#vocabulary ??= new VocabularyWatcher({
      page: (after) => this.sources.lookups.vocabularyPage(after),
      generation: this.generation(),
    });
    return this.#vocabulary;
  }

  /** The served generation's vocabulary as last read; undefined until read, or when not followed. */
  vocabulary(): Vocabulary | undefined {
    return this.#vocabulary?.current();
  }

  /**
   * The red flags' peer fences of one generation (a concrete index), read once and kept: a reindex writes them when
   * it creates the index and nothing changes them after, so the detail's evidence is derived with the very fences
   * its flags were raised with, whichever generation served it. A failed read is not kept.
   */
  flagPeers(index: string): Promise<PeerLookup> {
    let peers = this.#fences.get(index);
    if (!peers) {
      peers = this.sources.lookups.flagFences(index).then(peerLookup);
      peers.catch(() => this.#fences.delete(index));
      if (this.#fences.size >= FENCED_GENERATIONS) this.#fences.delete(this.#fences.keys().next().value!);
      this.#fences.set(index, peers);
    }
    return peers;
  }

  /** Whether the shared Redis store or the in-memory fallback is counting. */
  limiterHealth(): LimiterHealth {
    return this.sources.limiter.health();
  }

  /** Stops the generation's lookups and the vocabulary's. */
  close(): void {
    this.#generation?.close();
    this.#vocabulary?.close();
  }
}
