import { expect } from 'chai';
import {
  ConcurrencyLimit,
  DEFAULT_CONCURRENCY_LIMIT,
  type ConcurrencyLimitOptions,
} from '../../../../src/gateway/concurrencyLimit.js';

const OPTIONS: ConcurrencyLimitOptions = { ...DEFAULT_CONCURRENCY_LIMIT, maxLimit: 64 };

/**
 * A model of Elasticsearch on this machine: `parallel` searches run at once, each `serviceMs` long; with more in
 * flight they queue, so latency grows with the limit once it passes `parallel`.
 */
function latencyAt(inFlight: number, parallel: number, serviceMs: number): number {
  return serviceMs * Math.max(1, inFlight / parallel);
}

/**
 * Drives the limit with a saturating load for `seconds`: every slot is always used. `loopDelayMs`: each answer also
 * waited that long in a busy event loop (added to its latency, and said so).
 */
function saturate(
  limit: ConcurrencyLimit,
  start: number,
  seconds: number,
  model: (inFlight: number) => number,
  loopDelayMs?: (inFlight: number) => number,
): { now: number; limits: number[] } {
  let now = start;
  const limits: number[] = [];
  const end = start + seconds * 1000;
  while (now < end) {
    const inFlight = limit.limit;
    const latency = model(inFlight);
    // One completion per latency / inFlight ms, each with the latency of the current concurrency.
    now += latency / inFlight;
    const delay = loopDelayMs?.(inFlight);
    const sample =
      delay === undefined
        ? { latencyMs: latency, inFlight, dropped: false }
        : { latencyMs: latency + delay, loopDelayMs: delay, inFlight, dropped: false };
    limits.push(limit.record(sample, now));
  }
  return { now, limits };
}

/** A seeded noise in [1 - spread, 1 + spread] (a linear congruential generator: the same run every time). */
function noise(seed: number, spread: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return 1 - spread + (2 * spread * state) / 2 ** 31;
  };
}

describe('search/concurrencyLimit: the gradient limit', () => {
  it('starts with a probe at the lowest limit, then goes back to its initial limit with the minimum measured', () => {
    const limit = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    expect(limit.limit).to.equal(OPTIONS.minLimit);
    for (let i = 1; i <= OPTIONS.minSamples; i++)
      limit.record({ latencyMs: 8, inFlight: 2, dropped: false }, i * 25);
    expect(limit.minimumLatencyMs).to.equal(8);
    expect(limit.limit).to.equal(OPTIONS.initialLimit);
  });

  it('settles under saturation where latency stays within the tolerance of the minimum, far below the maximum', () => {
    const limit = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    const model = (inFlight: number) => latencyAt(inFlight, 4, 10);
    const { limits } = saturate(limit, 0, 20, model);
    const settled = limits.slice(-200);
    const highest = Math.max(...settled);
    // Latency at the settled limit: at most about tolerance × the minimum (10 ms at 4 in flight) plus headroom.
    expect(highest).to.be.at.least(4);
    expect(highest).to.be.below(20);
    expect(model(highest)).to.be.below(OPTIONS.tolerance * 10 * 2.5);
  });

  it('stays steady under a steady load, noise and all: no swing between one stretch of it and the next', () => {
    const limit = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    const jitter = noise(7, 0.3);
    const model = (inFlight: number) => latencyAt(inFlight, 4, 10) * jitter();
    let { now } = saturate(limit, 0, 5, model);
    // Stretches of 5 s between two probes (every 30 s on the wall clock): each one's typical limit.
    const typical: number[] = [];
    for (let stretch = 0; stretch < 4; stretch++) {
      const run = saturate(limit, now, 5, model);
      now = run.now;
      const sorted = run.limits.slice().sort((a, b) => a - b);
      typical.push(sorted[sorted.length >> 1]!);
    }
    expect(Math.max(...typical) - Math.min(...typical)).to.be.at.most(3);
  });

  it('shrinks when Elasticsearch itself slows down (its latency at the same concurrency triples)', () => {
    const limit = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    let { now, limits } = saturate(limit, 0, 10, (inFlight) => latencyAt(inFlight, 4, 10));
    const settled = limits[limits.length - 1]!;
    ({ now, limits } = saturate(limit, now, 3, (inFlight) => latencyAt(inFlight, 4, 30)));
    expect(limits[limits.length - 1]).to.be.below(settled);
    expect(now).to.be.below(OPTIONS.probeIntervalMs); // (no probe in between: the minimum is the one of before)
  });

  it("ignores the event loop's delay: an answer that waited in a busy process is not a slower Elasticsearch", () => {
    const model = (inFlight: number) => latencyAt(inFlight, 4, 10);
    // The process is starved once more than the probe's searches are in flight: each answer waits 60 ms in it.
    const starved = (inFlight: number) => (inFlight > OPTIONS.minLimit ? 60 : 0);
    const quiet = saturate(new ConcurrencyLimit(OPTIONS, 0, () => 0), 0, 20, model).limits.slice(-200);
    const busy = saturate(new ConcurrencyLimit(OPTIONS, 0, () => 0), 0, 20, model, starved).limits;
    expect(busy.slice(-200)).to.deep.equal(quiet);
    // The same delay, unsaid, reads as a slow Elasticsearch, and the limit falls towards its floor.
    const unsaid = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    const misread = saturate(unsaid, 0, 20, (inFlight) => model(inFlight) + starved(inFlight)).limits;
    expect(Math.max(...misread.slice(-200))).to.be.below(Math.min(...quiet));
  });

  it('grows while latency does not rise (Elasticsearch has room), up to the maximum', () => {
    const limit = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    const { limits } = saturate(limit, 0, 10, () => 10);
    expect(limits[limits.length - 1]).to.equal(OPTIONS.maxLimit);
  });

  it('two instances sharing one cluster settle, without talking, far below their maxima (no runaway)', () => {
    const one = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    const alone = saturate(one, 0, 20, (inFlight) => latencyAt(inFlight, 4, 10)).limits.slice(-100);
    let now = 0;
    // One wall clock for both (their monotonic clocks may differ): probes on the same boundaries.
    const a = new ConcurrencyLimit(OPTIONS, 0, () => now);
    const b = new ConcurrencyLimit(OPTIONS, 0, () => now);
    const sums: number[] = [];
    while (now < 20_000) {
      const total = a.limit + b.limit;
      const latency = latencyAt(total, 4, 10);
      now += latency / total;
      const which = Math.random() < a.limit / total ? a : b;
      which.record({ latencyMs: latency, inFlight: which.limit, dropped: false }, now);
      sums.push(a.limit + b.limit);
    }
    const shared = sums.slice(-200);
    const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    // Each sees the latency the other causes: together they send at most about twice what one sends alone (each
    // probe meets the other's lowest limit), nowhere near their two maxima, and they stay there.
    expect(average(shared)).to.be.below(average(alone) * 2.5);
    expect(Math.max(...shared)).to.be.below(OPTIONS.maxLimit);
    expect(Math.max(...shared) - Math.min(...shared)).to.be.below(average(shared) / 2);
  });

  it('cuts the limit at once in a window with a timeout or a rejection, never below the minimum', () => {
    const limit = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    let now = 0;
    for (let i = 0; i < OPTIONS.minSamples; i++)
      limit.record({ latencyMs: 8, inFlight: 2, dropped: false }, (now += 25));
    const before = limit.limit;
    for (let i = 0; i < OPTIONS.minSamples; i++)
      limit.record({ latencyMs: 2000, inFlight: 16, dropped: true }, (now += 25));
    expect(limit.limit).to.equal(Math.floor(before * OPTIONS.backoff));
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < OPTIONS.minSamples; i++)
        limit.record({ latencyMs: 2000, inFlight: 16, dropped: true }, (now += 25));
    }
    expect(limit.limit).to.equal(OPTIONS.minLimit);
  });

  it('does not grow a limit that is not used (fewer than half its slots in flight)', () => {
    const limit = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    let now = 0;
    for (let i = 0; i < OPTIONS.minSamples; i++)
      limit.record({ latencyMs: 8, inFlight: 1, dropped: false }, (now += 25));
    const before = limit.limit;
    for (let i = 0; i < 500; i++) limit.record({ latencyMs: 8, inFlight: 2, dropped: false }, (now += 25));
    expect(limit.limit).to.equal(before);
  });

  it('measures the minimum again about every probe interval, from searches run at the lowest limit only', () => {
    const limit = new ConcurrencyLimit(OPTIONS, 0, () => 0);
    let now = 0;
    for (let i = 0; i < OPTIONS.minSamples; i++)
      limit.record({ latencyMs: 8, inFlight: 2, dropped: false }, (now += 25));
    expect(limit.minimumLatencyMs).to.equal(8);
    // Up to the next probe (on the wall clock's next multiple of the interval), searches at 16 in flight.
    while (limit.limit !== OPTIONS.minLimit && now < 2 * OPTIONS.probeIntervalMs)
      limit.record({ latencyMs: 12, inFlight: 16, dropped: false }, (now += 25));
    expect(limit.limit).to.equal(OPTIONS.minLimit); // probing
    expect(now).to.be.within(OPTIONS.probeIntervalMs, OPTIONS.probeIntervalMs + 3 * OPTIONS.windowMs);
    // Searches started before the probe (16 in flight) are not measured by it.
    for (let i = 0; i < 20; i++) limit.record({ latencyMs: 40, inFlight: 16, dropped: false }, (now += 25));
    expect(limit.limit).to.equal(OPTIONS.minLimit);
    for (let i = 0; i < OPTIONS.minSamples; i++)
      limit.record({ latencyMs: 11, inFlight: 4, dropped: false }, (now += 25));
    expect(limit.minimumLatencyMs).to.equal(11);
    expect(limit.limit).to.be.above(OPTIONS.minLimit);
  });
});
