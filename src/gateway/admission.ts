// Admission control in front of Elasticsearch, one per instance. At most `limit` searches are in flight (the knee
// of Elasticsearch's latency, concurrencyLimit.ts); the others wait in a queue, as long as their answer can still
// come within the target (ADMISSION_TARGET_MS): the wait for a slot (a slot comes free every latency / limit) plus
// Elasticsearch's recent latency. A search whose answer could not come in time is refused at once and never sent:
// under overload Elasticsearch works only on searches whose answers will be read, and every other request is told
// so at once (503, overloaded). A closed loop of clients, however many, never needs a refusal: each waits for its
// answer, so the queue holds at most one search per client, and it is refused only once that wait passes the target.
//
// The front door (src/http/frontDoor.ts) asks `admitsNow()` before any of a request's work, and refuses there
// what would be refused here anyway, for next to nothing; it also refuses while the process itself is saturated
// (its event loop, ./loopMonitor.ts). The queue is p-queue's (its concurrency can change while it runs, and a
// queued task leaves it on an abort signal).
import PQueue from 'p-queue';
import {
  ConcurrencyLimit,
  DEFAULT_CONCURRENCY_LIMIT,
  elasticsearchLatency,
  type ConcurrencyLimitOptions,
} from './concurrencyLimit.js';
import { SearchAbandonedError, SearchDeclinedError, SearchOverloadedError } from './searchErrors.js';
import type { LoopLoad } from './loopMonitor.js';

/** What an ended search says to the limit: a latency sample, a sign of overload, or nothing (cancelled). */
export type Outcome = 'sample' | 'dropped' | 'skip';

export interface AdmissionOptions {
  /** The most searches in flight, whatever the latency (ADMISSION_MAX_IN_FLIGHT). */
  maxLimit: number;
  /** The time to an answer admission aims at: queue wait plus Elasticsearch's latency (ADMISSION_TARGET_MS). */
  targetMs: number;
  /**
   * The search deadline (ES_REQUEST_TIMEOUT_MS; default twice the target): an admitted search still waiting when
   * its answer could no longer come before it is refused then. The target decides what is admitted; the time
   * between the two absorbs the estimate's errors (a probe, a slower Elasticsearch), so that an admitted search is
   * almost never refused late.
   */
  deadlineMs?: number;
  /** The most searches waiting for a slot, whatever the target (memory's bound; default 16 × maxLimit). */
  maxQueued?: number;
  /** This process's event loop: its delay is not Elasticsearch's latency, and a saturated loop sheds at the door. */
  loop?: LoopLoad;
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
  /**
   * Optional searches (a "did you mean" count) not run since start, because searches were waiting or being
   * refused: their answers went without what they would have added.
   */
  declined: number;
  /** A search was refused within the last SHEDDING_MEMORY_MS. */
  shedding: boolean;
  /** The latency the limit is measured against (ms), once known. */
  minimumLatencyMs: number | null;
  /** Elasticsearch's recent latency (ms, without the event loop's delay; 0 before any search). */
  latencyMs: number;
  /** The time to an answer admission aims at (ms). */
  targetMs: number;
}

/** How long after its last refusal an instance still says it is shedding (readiness, metrics). */
export const SHEDDING_MEMORY_MS = 10_000;

/** How many recent searches the latency's exponential average is about. */
const LATENCY_AVERAGE_OVER = 20;

const NO_SLOT_IN_TIME = Symbol('no slot in time');
const CLIENT_GONE = Symbol('client gone');

export class Admission {
  private readonly queue: PQueue;
  private readonly control: ConcurrencyLimit;
  private readonly now: () => number;
  private readonly maxQueued: number;
  private readonly deadlineMs: number;
  private refusedCount = 0;
  private declinedCount = 0;
  private meanLatencyMs = 0;
  private meanSlotMs = 0;
  /** Searches measured so far. */
  private measured = 0;
  private lastRefusalAt = -Infinity;
  private readonly waitListeners: ((waitSeconds: number) => void)[] = [];

  constructor(private readonly options: AdmissionOptions) {
    this.now = options.now ?? (() => performance.now());
    this.maxQueued = options.maxQueued ?? 16 * options.maxLimit;
    this.deadlineMs = Math.max(options.targetMs, options.deadlineMs ?? 2 * options.targetMs);
    const minLimit = Math.min(DEFAULT_CONCURRENCY_LIMIT.minLimit, options.maxLimit);
    this.control = new ConcurrencyLimit(
      { ...DEFAULT_CONCURRENCY_LIMIT, minLimit, maxLimit: options.maxLimit, ...options.limit },
      this.now(),
    );
    this.queue = new PQueue({ concurrency: this.control.limit });
  }

  /**
   * Runs `search` once a slot is free; refuses it (SearchOverloadedError) when its answer could not come within
   * the target (or the queue is at its bound), and gives it up (SearchAbandonedError) when `signal` aborts while
   * it waits.
   */
  async run<T>(search: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw new SearchAbandonedError();
    const queue = this.queue;
    const queuedAt = this.now();
    // A slot free now: no timer, no listener, no signal (an admission that is not needed costs nothing).
    if (this.slotFree()) return queue.add(() => this.measure(search, queuedAt));
    if (queue.size >= this.maxQueued) throw this.refuse('queue full');
    if (!this.answersInTime(queue.size + 1)) throw this.refuse('not in time');
    // The wait's own signal, cut loose once the search starts: p-queue would also give up a running task on it,
    // and a running search ends only when Elasticsearch's answer (or its own cancellation) is in. The estimate
    // can be wrong (Elasticsearch slowed since): a search still waiting when its answer could no longer come
    // before the deadline is refused.
    const waiting = new AbortController();
    const timer = setTimeout(
      () => waiting.abort(NO_SLOT_IN_TIME),
      Math.max(1, this.deadlineMs - this.meanSlotMs),
    );
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

  /**
   * Whether a search asked now would be admitted, and the process has room for its work: the front door's
   * question, answered from a few numbers (no allocation). When it says no, `run` would refuse as well.
   */
  admitsNow(): boolean {
    if (this.options.loop?.saturated()) return false;
    return this.slotFree() || (this.queue.size < this.maxQueued && this.answersInTime(this.queue.size + 1));
  }

  /**
   * Runs an optional search (one that only adds to an answer, never decides it: "did you mean") when a slot is free
   * now and nothing is refused or waiting; else declines it at once (SearchDeclinedError), not queued and not counted
   * as a refusal, so that under pressure the searches answers depend on go first.
   */
  async runOptional<T>(search: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw new SearchAbandonedError();
    if (!this.idleNow()) {
      this.declinedCount++;
      throw new SearchDeclinedError();
    }
    return this.queue.add(() => this.measure(search, this.now()));
  }

  /** A slot is free, nothing waits, nothing was refused lately and the process has room: no pressure at all. */
  private idleNow(): boolean {
    return (
      this.slotFree() &&
      this.now() - this.lastRefusalAt >= SHEDDING_MEMORY_MS &&
      !this.options.loop?.saturated()
    );
  }

  state(): AdmissionState {
    return {
      limit: this.queue.concurrency,
      inFlight: this.queue.pending,
      queued: this.queue.size,
      refused: this.refusedCount,
      declined: this.declinedCount,
      shedding: this.now() - this.lastRefusalAt < SHEDDING_MEMORY_MS,
      minimumLatencyMs: this.control.minimumLatencyMs ?? null,
      latencyMs: this.meanLatencyMs,
      targetMs: this.options.targetMs,
    };
  }

  /** Tells `listener` how long each admitted search waited for its slot, in seconds (metrics). */
  onAdmitted(listener: (waitSeconds: number) => void): void {
    this.waitListeners.push(listener);
  }

  /** Counts a refusal made elsewhere (the front door, Elasticsearch's own 429), so readiness and metrics show it. */
  noteRefusal(): void {
    this.refusedCount++;
    this.lastRefusalAt = this.now();
  }

  private refuse(reason: string): SearchOverloadedError {
    this.noteRefusal();
    return new SearchOverloadedError(reason);
  }

  private slotFree(): boolean {
    return this.queue.size === 0 && this.queue.pending < this.queue.concurrency;
  }

  /**
   * Whether the `position`-th search in the queue can expect its answer within the target: a slot comes free
   * every `slot time / limit` on average, then its own search holds one as long (the recent means; 0 before
   * anything was measured, when only the queue's bound and the wait's timer decide).
   */
  private answersInTime(position: number): boolean {
    const slot = this.meanSlotMs;
    return (position * slot) / Math.max(1, this.queue.concurrency) + slot <= this.options.targetMs;
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
        const sample = {
          latencyMs: ended - started,
          loopDelayMs: this.options.loop?.delayMs() ?? 0,
          inFlight,
          dropped: outcome === 'dropped',
        };
        // Exponential averages over about the last 20 searches (the first one taken as it is): Elasticsearch's
        // latency, and how long a search held its slot (that, with the event loop's delay in it, is what a
        // queued search waits for).
        const weight = this.measured++ === 0 ? 1 : 1 / LATENCY_AVERAGE_OVER;
        this.meanLatencyMs += (elasticsearchLatency(sample) - this.meanLatencyMs) * weight;
        this.meanSlotMs += (sample.latencyMs - this.meanSlotMs) * weight;
        const limit = this.control.record(sample, ended);
        if (limit !== this.queue.concurrency) this.queue.concurrency = limit;
      }
    }
  }
}
