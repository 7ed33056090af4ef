// Admission control in front of Elasticsearch, one per instance: at most `limit` searches in flight (adapted to
// Elasticsearch's latency, concurrencyLimit.ts), a short queue for bursts, and a refusal at once for the rest. A
// search that cannot start within `maxWaitMs` (or finds the queue full) is never sent: under overload Elasticsearch
// works only on searches whose answers will be read, and every other request is told so at once (503, overloaded).
// The queue is p-queue's (its concurrency can change while it runs, and a queued task leaves it on an abort signal).
import PQueue from 'p-queue';
import {
  ConcurrencyLimit,
  DEFAULT_CONCURRENCY_LIMIT,
  type ConcurrencyLimitOptions,
} from './concurrencyLimit.js';
import { SearchAbandonedError, SearchOverloadedError } from './errors.js';

/** What an ended search says to the limit: a latency sample, a sign of overload, or nothing (cancelled). */
export type Outcome = 'sample' | 'dropped' | 'skip';

export interface AdmissionOptions {
  /** The most searches in flight, whatever the latency (ADMISSION_MAX_IN_FLIGHT). */
  maxLimit: number;
  /** The longest a search waits for a slot before it is refused (ADMISSION_MAX_WAIT_MS). */
  maxWaitMs: number;
  /** How the limit adapts (defaults: DEFAULT_CONCURRENCY_LIMIT). */
  limit?: Partial<ConcurrencyLimitOptions>;
  /** What a failed search says to the limit (default: a sample). */
  outcomeOf?: (error: unknown) => Outcome;
  now?: () => number;
}

export interface AdmissionState {
  /** Searches that may be in flight now. */
  limit: number;
  inFlight: number;
  queued: number;
  /** Searches refused since start. */
  refused: number;
  /** A search was refused within the last SHEDDING_MEMORY_MS. */
  shedding: boolean;
  /** The latency the limit is measured against (ms), once known. */
  minimumLatencyMs: number | null;
}

/** How long after its last refusal an instance still says it is shedding (readiness, metrics). */
export const SHEDDING_MEMORY_MS = 10_000;

const NO_SLOT_IN_TIME = Symbol('no slot in time');
const CLIENT_GONE = Symbol('client gone');

export class Admission {
  private readonly queue: PQueue;
  private readonly control: ConcurrencyLimit;
  private readonly now: () => number;
  private refusedCount = 0;
  private meanLatencyMs = 0;
  private lastRefusalAt = -Infinity;
  private readonly waitListeners: ((waitSeconds: number) => void)[] = [];

  constructor(private readonly options: AdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
    const minLimit = Math.min(DEFAULT_CONCURRENCY_LIMIT.minLimit, options.maxLimit);
    this.control = new ConcurrencyLimit(
      { ...DEFAULT_CONCURRENCY_LIMIT, minLimit, maxLimit: options.maxLimit, ...options.limit },
      this.now(),
    );
    this.queue = new PQueue({ concurrency: this.control.limit });
  }

  /**
   * Runs `search` once a slot is free; refuses it (SearchOverloadedError) when the queue is full or no slot comes
   * free in time, and gives it up (SearchAbandonedError) when `signal` aborts while it waits.
   */
  async run<T>(search: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw new SearchAbandonedError();
    const queue = this.queue;
    const queuedAt = this.now();
    // A slot free now: no timer, no listener, no signal (an admission that is not needed costs nothing).
    if (queue.size === 0 && queue.pending < queue.concurrency) {
      return queue.add(() => this.measure(search, queuedAt));
    }
    // The queue holds at most as many as may run; and a search whose turn would come after the wait (by the
    // recent pace of completions) is refused now rather than after waiting in vain.
    if (queue.size >= queue.concurrency) throw this.refuse('queue full');
    if (this.expectedWaitMs(queue.size + 1) > this.options.maxWaitMs) throw this.refuse('no slot in time');
    // The wait's own signal, cut loose once the search starts: p-queue would also give up a running task on it,
    // and a running search ends only when Elasticsearch's answer (or its own cancellation) is in.
    const waiting = new AbortController();
    const timer = setTimeout(() => waiting.abort(NO_SLOT_IN_TIME), this.options.maxWaitMs);
    const onClientGone = () => waiting.abort(CLIENT_GONE);
    signal?.addEventListener('abort', onClientGone, { once: true });
    const stopWaiting = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onClientGone);
    };
    try {
      return await queue.add(
        () => {
          stopWaiting();
          return this.measure(search, queuedAt);
        },
        { signal: waiting.signal },
      );
    } catch (error) {
      if (error === CLIENT_GONE) throw new SearchAbandonedError();
      if (error === NO_SLOT_IN_TIME) throw this.refuse('no slot in time');
      throw error;
    } finally {
      stopWaiting();
    }
  }

  state(): AdmissionState {
    return {
      limit: this.queue.concurrency,
      inFlight: this.queue.pending,
      queued: this.queue.size,
      refused: this.refusedCount,
      shedding: this.now() - this.lastRefusalAt < SHEDDING_MEMORY_MS,
      minimumLatencyMs: this.control.minimumLatencyMs ?? null,
    };
  }

  /** Tells `listener` how long each admitted search waited for its slot, in seconds (metrics). */
  onAdmitted(listener: (waitSeconds: number) => void): void {
    this.waitListeners.push(listener);
  }

  /** Counts a refusal made elsewhere (Elasticsearch's own 429), so that readiness and metrics show it. */
  noteRefusal(): void {
    this.refusedCount++;
    this.lastRefusalAt = this.now();
  }

  private refuse(reason: string): SearchOverloadedError {
    this.noteRefusal();
    return new SearchOverloadedError(reason);
  }

  /**
   * How long the `position`-th search in the queue can expect to wait: a slot comes free every `latency / limit`
   * on average, the latency being the recent mean (0 before anything was measured: then the wait decides).
   */
  private expectedWaitMs(position: number): number {
    return (position * this.meanLatencyMs) / Math.max(1, this.queue.concurrency);
  }

  private async measure<T>(search: () => Promise<T>, queuedAt: number): Promise<T> {
    const started = this.now();
    for (const listener of this.waitListeners) listener((started - queuedAt) / 1000);
    const inFlight = this.queue.pending;
    let outcome: Outcome = 'sample';
    try {
      return await search();
    } catch (error) {
      outcome = this.options.outcomeOf?.(error) ?? 'sample';
      throw error;
    } finally {
      if (outcome !== 'skip') {
        const ended = this.now();
        // The mean latency of recent searches (an exponential average over about the last 20), for the
        // expected wait of the next that has to queue.
        this.meanLatencyMs += (ended - started - this.meanLatencyMs) / 20;
        const limit = this.control.record(
          { latencyMs: ended - started, inFlight, dropped: outcome === 'dropped' },
          ended,
        );
        if (limit !== this.queue.concurrency) this.queue.concurrency = limit;
      }
    }
  }
}
