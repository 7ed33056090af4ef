// The change log's head and sync's state as this instance last read them (lookups.ts: servedState()), read again
// at most every MAX_AGE_MS and only when asked: no timer, and no lookup per request. A reading up to
// MAX_STALE_MS old is answered at once while a new one is made; past that (or once invalidated), callers wait for
// the new one, but never longer than WAIT_MS: then the last reading is answered, however old. An answer never
// waits on a slow cluster for more than that.
//
// An older head is always safe where one is handed out: a list answer's `changes_since` must not be later than
// the data it was computed from, and a head read before the search cannot be (the indexer makes a change
// searchable before its event is published). A later one would not be: the state is never read beside a search.
import { SearchUnavailableError } from '../gateway/searchErrors.js';
import type { ServedState } from '../liveState/lookups.js';

export const MAX_AGE_MS = 2_000;
export const MAX_STALE_MS = 5_000;
export const WAIT_MS = 100;

export interface ServedStateWatcherOptions {
  read: () => Promise<ServedState>;
  maxAgeMs?: number;
  maxStaleMs?: number;
  waitMs?: number;
  now?: () => number;
}

export class ServedStateWatcher {
  private last: { state: ServedState; at: number } | null = null;
  private invalidated = false;
  private reading: Promise<ServedState> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ServedStateWatcherOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A reading at most MAX_AGE_MS old; one up to MAX_STALE_MS old at once while a new one is made; otherwise the
   * new one, or after `waitMs` (default WAIT_MS) the last one. Throws when there is no reading to fall back on
   * and none comes in time (Infinity: waits as long as the lookup takes).
   */
  async current(waitMs = this.options.waitMs ?? WAIT_MS): Promise<ServedState> {
    const age = this.last ? this.now() - this.last.at : Infinity;
    if (!this.invalidated && age <= (this.options.maxAgeMs ?? MAX_AGE_MS)) return this.last!.state;
    const next = this.read();
    if (!this.invalidated && age <= (this.options.maxStaleMs ?? MAX_STALE_MS)) {
      next.catch(() => undefined);
      return this.last!.state;
    }
    const fallback = this.last?.state;
    if (waitMs === Infinity) return fallback === undefined ? next : next.catch(() => fallback);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<ServedState>((resolve, reject) => {
      timer = setTimeout(() => {
        if (fallback !== undefined) resolve(fallback);
        else reject(new SearchUnavailableError(`did not say what the change log holds within ${waitMs} ms`));
      }, waitMs);
    });
    next.catch(() => undefined);
    try {
      return await Promise.race([fallback === undefined ? next : next.catch(() => fallback), waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Makes the next current() wait (up to WAIT_MS) for a new reading. Called when the cached answers' generation
   * moves, so the answers computed for the new generation carry a head read after it (the indexer publishes a
   * change's events before it moves the generation), not a stale one kept in the cache until the next change.
   */
  invalidate(): void {
    this.invalidated = true;
  }

  /** A reading made now (or by a lookup already under way): for readiness and metrics. */
  fresh(): Promise<ServedState> {
    return this.read();
  }

  private read(): Promise<ServedState> {
    const askedAt = this.now(); // the reading tells the state at the time of asking
    this.reading ??= this.options
      .read()
      .then((state) => {
        this.last = { state, at: askedAt };
        this.invalidated = false;
        return state;
      })
      .catch((error: unknown) => {
        throw error instanceof SearchUnavailableError
          ? error
          : new SearchUnavailableError('did not say what the change log holds', { cause: error });
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }
}
