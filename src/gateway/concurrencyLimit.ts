// How many searches one instance lets run in Elasticsearch at once, adapted to Elasticsearch's own latency: a
// gradient controller in the manner of Envoy's adaptive concurrency filter. Pure: the caller passes the clock in.
//
// What it finds is the knee: the concurrency past which more searches in Elasticsearch only queue there. Each
// window of completed searches gives a sample latency (its median), measured without the time the answer waited
// in this process's event loop (a starved process is not a slow Elasticsearch). Against the latency Elasticsearch
// has with little load (the minimum, measured in a short probe at the lowest limit now and then), the gradient
// `tolerance × minimum / sample`, kept within [0.5, 1], shrinks the limit when searches start to queue in
// Elasticsearch, and a headroom of √limit lets it grow while they do not. A latency that does not grow with the
// concurrency (a slow network, a slow but idle cluster) is measured by the probe too, and so never shrinks it.
//
// The limit decides only how many searches are in Elasticsearch at once; the rest wait in this instance's queue,
// where admission (admission.ts) lets them wait as long as their answer still comes within its target. So the
// limit may move with Elasticsearch's load without refusing anything: windows of a few dozen searches keep it
// steady under a steady load.
//
// Several instances sharing one cluster each see the latency the others cause, so they settle without talking to
// each other; their probes fall on the same wall-clock boundaries, so that all of them are at their lowest limit
// together and the minimum they measure is not the load of the others. A search that timed out or that
// Elasticsearch rejected (429) cuts the limit at once: overload, not a node failure.

export interface ConcurrencyLimitOptions {
  /** Never below this (a probe runs at it). */
  minLimit: number;
  /** Never above this. */
  maxLimit: number;
  /** Where to start before anything is measured. */
  initialLimit: number;
  /** A window closes after this long (and minSamples completions). */
  windowMs: number;
  /** Completions a window needs before it closes (a window 10× longer closes with one). */
  minSamples: number;
  /** Latency allowed above the probe's minimum before the limit shrinks: 2 = twice the minimum. */
  tolerance: number;
  /** A probe of the minimum latency this often, on the wall clock's multiples of it (all instances together). */
  probeIntervalMs: number;
  /** Factor applied to the limit in a window with a timeout or a rejection. */
  backoff: number;
}

export const DEFAULT_CONCURRENCY_LIMIT: Omit<ConcurrencyLimitOptions, 'maxLimit'> = {
  minLimit: 4,
  initialLimit: 16,
  windowMs: 250,
  minSamples: 20,
  tolerance: 2,
  probeIntervalMs: 30_000,
  backoff: 0.75,
};

export interface LimitSample {
  /** Time from the search's start to its end, ms. */
  latencyMs: number;
  /** Of that, how long the answer waited in this process's event loop (ms; default 0): not Elasticsearch's. */
  loopDelayMs?: number;
  /** Searches in flight when it started (itself included). */
  inFlight: number;
  /** It timed out or Elasticsearch rejected it: a sign of overload. */
  dropped: boolean;
}

export class ConcurrencyLimit {
  private estimate: number;
  /** The limit to go back to after a probe. */
  private beforeProbe = 0;
  private probing = false;
  /** Median latency of the last probe (ms); undefined until one has run. */
  private minLatency: number | undefined;
  private nextProbeAt: number;
  private windowStart: number;
  private windowLatencies: number[] = [];
  private windowMaxInFlight = 0;
  private windowDropped = false;

  constructor(
    private readonly options: ConcurrencyLimitOptions,
    now: number,
    /** The wall clock (ms), for the probes' boundaries only; latencies are measured on `now`'s clock. */
    private readonly wallClock: () => number = Date.now,
  ) {
    this.estimate = clamp(options.initialLimit, options.minLimit, options.maxLimit);
    this.windowStart = now;
    this.nextProbeAt = now;
    // A probe first: nothing is known of Elasticsearch's latency yet.
    this.startProbe(now);
  }

  /** Searches that may be in flight now (whole). */
  get limit(): number {
    return this.probing ? this.options.minLimit : Math.floor(this.estimate);
  }

  /** The latency the limit is measured against (ms), once a probe has run. */
  get minimumLatencyMs(): number | undefined {
    return this.minLatency;
  }

  /** One search ended; returns the limit from now on. */
  record(sample: LimitSample, now: number): number {
    // A probe measures searches that ran at its low limit, not those started before it under a higher one.
    if (this.probing && sample.inFlight > this.options.minLimit) return this.limit;
    this.windowLatencies.push(elasticsearchLatency(sample));
    if (sample.inFlight > this.windowMaxInFlight) this.windowMaxInFlight = sample.inFlight;
    if (sample.dropped) this.windowDropped = true;
    const elapsed = now - this.windowStart;
    const count = this.windowLatencies.length;
    const closes =
      (elapsed >= this.options.windowMs && count >= this.options.minSamples) ||
      (elapsed >= this.options.windowMs * 10 && count >= 1);
    if (closes) this.closeWindow(now);
    return this.limit;
  }

  private closeWindow(now: number): void {
    const sample = median(this.windowLatencies);
    const dropped = this.windowDropped;
    const usedHalf = this.windowMaxInFlight >= this.estimate / 2;
    this.windowLatencies = [];
    this.windowMaxInFlight = 0;
    this.windowDropped = false;
    this.windowStart = now;
    const { minLimit, maxLimit } = this.options;

    if (this.probing) {
      this.probing = false;
      this.minLatency = sample;
      this.estimate = this.beforeProbe;
      const interval = this.options.probeIntervalMs;
      this.nextProbeAt = now + interval - (this.wallClock() % interval);
    } else if (dropped) {
      this.estimate = Math.max(minLimit, this.estimate * this.options.backoff);
    } else if (this.minLatency !== undefined) {
      const gradient = clamp((this.options.tolerance * this.minLatency) / Math.max(sample, 1e-3), 0.5, 1);
      const next = this.estimate * gradient + Math.sqrt(this.estimate);
      // A limit that is not used says nothing about a larger one: grow only when at least half of it was used.
      this.estimate = clamp(next > this.estimate && !usedHalf ? this.estimate : next, minLimit, maxLimit);
    }
    if (now >= this.nextProbeAt) this.startProbe(now);
  }

  private startProbe(now: number): void {
    this.beforeProbe = this.estimate;
    this.probing = true;
    this.windowStart = now;
  }
}

/** A search's time in Elasticsearch (and the network): its time less its answer's wait in the event loop. */
export function elasticsearchLatency(sample: Pick<LimitSample, 'latencyMs' | 'loopDelayMs'>): number {
  return Math.max(0, sample.latencyMs - (sample.loopDelayMs ?? 0));
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
