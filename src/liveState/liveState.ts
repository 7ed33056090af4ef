// What this instance serves now, in one place: the generation behind the alias (its concrete index and data
// version, which the response cache keys on), the change log's head with sync's guard and high-water mark (for
// `changes_since`, the changes operations and readiness), and the rate limiter's store (for readiness). Every
// lookup of it in Elasticsearch is made here, each bounded in rate: the generation every 2 s while the response
// cache watches it, the served state at most every 2 s and only when asked (./generationWatcher.ts,
// ./servedStateWatcher.ts say how long each answer is trusted; ./lookups.ts makes them).
import type { LimiterHealth } from '../rateLimit/types.js';
import { GenerationWatcher } from './generationWatcher.js';
import type { LiveLookups } from './lookups.js';
import { ServedStateWatcher } from './servedStateWatcher.js';

export interface LiveStateSources {
  lookups: LiveLookups;
  limiter: { health(): LimiterHealth };
}

export class LiveState {
  /** The change log's head and sync's state. */
  readonly served: ServedStateWatcher;
  #generation: GenerationWatcher | undefined;

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

  /** Whether the shared Redis store or the in-memory fallback is counting. */
  limiterHealth(): LimiterHealth {
    return this.sources.limiter.health();
  }

  /** Stops the generation's lookups. */
  close(): void {
    this.#generation?.close();
  }
}
