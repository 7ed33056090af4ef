import { expect } from 'chai';
import { Admission, SHEDDING_MEMORY_MS } from '../../../../src/gateway/admission.js';
import {
  SearchAbandonedError,
  SearchDeclinedError,
  SearchOverloadedError,
} from '../../../../src/gateway/searchErrors.js';
import type { LoopLoad } from '../../../../src/gateway/loopMonitor.js';

/** A search that ends when the test says so. */
function held(): { search: () => Promise<string>; release: () => void; started: () => boolean } {
  let release!: () => void;
  let started = false;
  const done = new Promise<string>((resolve) => (release = () => resolve('answer')));
  return {
    search: () => {
      started = true;
      return done;
    },
    release,
    started: () => started,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** An event loop whose delay and saturation the test sets. */
function loop(delayMs = 0, saturated = false): LoopLoad & { delay: number; busy: boolean } {
  return {
    delay: delayMs,
    busy: saturated,
    delayMs() {
      return this.delay;
    },
    saturated() {
      return this.busy;
    },
  };
}

/** Runs searches of `latencyMs` on a clock the test moves, `count` of them one after the other. */
async function measured(admission: Admission, clock: { now: number }, latencyMs: number, count: number) {
  for (let i = 0; i < count; i++) {
    await admission.run(async () => {
      clock.now += latencyMs;
      return 'ok';
    });
  }
}

describe('search/admission: searches wait while their answer can come within the target, the rest refused at once', () => {
  it('runs at once while slots are free, and queues beyond the limit while answers come in time', async () => {
    const admission = new Admission({ maxLimit: 2, targetMs: 60_000 });
    const searches = [held(), held(), held(), held(), held()];
    const results = searches.map((s) => admission.run(s.search));
    await settle();
    expect(searches.map((s) => s.started())).to.deep.equal([true, true, false, false, false]);
    expect(admission.state()).to.include({ limit: 2, inFlight: 2, queued: 3, refused: 0 });
    searches[0]!.release();
    await settle();
    expect(searches[2]!.started()).to.equal(true);
    for (const s of searches) s.release();
    expect(await Promise.all(results)).to.deep.equal(['answer', 'answer', 'answer', 'answer', 'answer']);
    expect(admission.state().shedding).to.equal(false);
  });

  it('serves a closed loop of far more clients than the limit without a refusal while their answers come in time', async () => {
    const clock = { now: 0 };
    const admission = new Admission({ maxLimit: 4, targetMs: 1000, now: () => clock.now });
    await measured(admission, clock, 20, 40); // Elasticsearch answers in 20 ms
    // 40 clients, each asking again as soon as it has its answer: 36 wait, the last about 36 × 20 / 4 + 20 ms.
    const clients = Array.from({ length: 40 }, async () => {
      for (let round = 0; round < 5; round++) {
        await admission.run(async () => {
          await settle();
          clock.now += 20 / 4;
          return 'ok';
        });
      }
    });
    await Promise.all(clients);
    expect(admission.state()).to.include({ refused: 0, queued: 0 });
  });

  it('refuses at once, never running it, a search whose answer could not come within the target', async () => {
    const clock = { now: 0 };
    const admission = new Admission({ maxLimit: 1, targetMs: 250, now: () => clock.now });
    await measured(admission, clock, 100, 60); // the recent latency: about 100 ms
    const first = held();
    const running = admission.run(first.search);
    // One slot, 100 ms a search: the first in the queue answers in about 200 ms (in time), the second in 300.
    const second = held();
    const waiting = admission.run(second.search);
    const third = held();
    const error = await admission.run(third.search).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(SearchOverloadedError).with.property('reason', 'not in time');
    expect(admission.state()).to.include({ queued: 1, refused: 1, shedding: true });
    expect(admission.admitsNow()).to.equal(false);
    first.release();
    await running;
    second.release();
    expect(await waiting).to.equal('answer');
    await settle();
    expect(third.started()).to.equal(false);
    expect(admission.admitsNow()).to.equal(true);
  });

  it('refuses a queued search still waiting when its answer could no longer come before the deadline', async () => {
    const admission = new Admission({ maxLimit: 1, targetMs: 5, deadlineMs: 10 });
    const first = held();
    const running = admission.run(first.search);
    const second = held();
    const error = await admission.run(second.search).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(SearchOverloadedError).with.property('reason', 'no slot in time');
    first.release();
    await running;
    await settle();
    expect(second.started()).to.equal(false);
    expect(admission.state()).to.include({ inFlight: 0, queued: 0, refused: 1 });
  });

  it('bounds the queue whatever the target (memory), and says so', async () => {
    const admission = new Admission({ maxLimit: 1, targetMs: 60_000, maxQueued: 2 });
    const searches = [held(), held(), held()];
    const results = searches.map((s) => admission.run(s.search));
    const error = await admission.run(async () => 'never').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(SearchOverloadedError).with.property('reason', 'queue full');
    for (const s of searches) s.release();
    await Promise.all(results);
  });

  it('a running search is never given up by the wait: the slot is held until it ends', async () => {
    const admission = new Admission({ maxLimit: 1, targetMs: 1000 });
    const first = held();
    const running = admission.run(first.search);
    const queued = held();
    const waiting = admission.run(queued.search);
    first.release();
    await running;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queued.started()).to.equal(true);
    expect(admission.state().inFlight).to.equal(1);
    queued.release();
    expect(await waiting).to.equal('answer');
  });

  it('a queued search whose client goes away leaves the queue, abandoned, not refused', async () => {
    const admission = new Admission({ maxLimit: 1, targetMs: 60_000 });
    const first = held();
    const running = admission.run(first.search);
    const client = new AbortController();
    const second = held();
    const waiting = admission.run(second.search, client.signal).catch((e: unknown) => e);
    client.abort();
    expect(await waiting).to.be.instanceOf(SearchAbandonedError);
    expect(admission.state()).to.include({ queued: 0, refused: 0 });
    first.release();
    await running;
    await settle();
    expect(second.started()).to.equal(false);
  });

  it("measures Elasticsearch's latency without the time answers waited in this process's event loop", async () => {
    const clock = { now: 0 };
    const busy = loop(70);
    const admission = new Admission({ maxLimit: 4, targetMs: 1000, now: () => clock.now, loop: busy });
    await measured(admission, clock, 100, 200); // 100 ms seen, of which 70 in the event loop
    // eslint-disable-next-line local/no-measured-time-bounds -- a fake clock: 100 ms seen, 70 of them in the loop
    expect(admission.state().latencyMs).to.be.closeTo(30, 0.5);
  });

  it('says no at the front door while the process itself is saturated, though a slot is free', () => {
    const busy = loop(0, true);
    const admission = new Admission({ maxLimit: 4, targetMs: 1000, loop: busy });
    expect(admission.admitsNow()).to.equal(false);
    busy.busy = false;
    expect(admission.admitsNow()).to.equal(true);
  });

  it('lowers its limit after searches that were dropped (timeouts), by what outcomeOf says', async () => {
    const admission = new Admission({
      maxLimit: 16,
      targetMs: 1000,
      limit: { minSamples: 1, windowMs: 0, minLimit: 1 },
      outcomeOf: () => 'dropped',
    });
    // The first window is the probe (limit 1): then back to 16, then cut by each dropped window.
    await admission.run(async () => 'ok');
    const before = admission.state().limit;
    for (let i = 0; i < 3; i++)
      await admission.run(() => Promise.reject(new Error('timed out'))).catch(() => undefined);
    expect(admission.state().limit).to.be.below(before);
  });

  describe('optional searches (did you mean, issue 72): run only under no pressure, never queued', () => {
    it('runs one at once while a slot is free and nothing waits', async () => {
      const admission = new Admission({ maxLimit: 2, targetMs: 60_000 });
      const optional = held();
      const result = admission.runOptional(optional.search);
      await settle();
      expect(optional.started()).to.equal(true);
      expect(admission.state()).to.include({ inFlight: 1, declined: 0 });
      optional.release();
      expect(await result).to.equal('answer');
    });

    it('declines at once, never running it, while searches wait for a slot; counts it, refuses nothing', async () => {
      const admission = new Admission({ maxLimit: 1, targetMs: 60_000 });
      const [running, waiting, optional] = [held(), held(), held()];
      const results = [admission.run(running.search), admission.run(waiting.search)];
      await settle();
      const error = await admission.runOptional(optional.search).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(SearchDeclinedError);
      expect(optional.started()).to.equal(false);
      expect(admission.state()).to.include({ queued: 1, declined: 1, refused: 0, shedding: false });
      running.release();
      waiting.release();
      await Promise.all(results);
    });

    it('declines while the instance sheds (a refusal lately), though a slot is free; runs again once that passes', async () => {
      const clock = { now: 0 };
      const admission = new Admission({ maxLimit: 2, targetMs: 1000, now: () => clock.now });
      admission.noteRefusal();
      expect(admission.state().shedding).to.equal(true);
      const error = await admission.runOptional(async () => 'ok').catch((e: unknown) => e);
      expect(error).to.be.instanceOf(SearchDeclinedError);
      clock.now += SHEDDING_MEMORY_MS;
      expect(await admission.runOptional(async () => 'ok')).to.equal('ok');
      expect(admission.state()).to.include({ declined: 1, refused: 1 });
    });

    it('declines while the process itself is saturated', async () => {
      const busy = loop(0, true);
      const admission = new Admission({ maxLimit: 2, targetMs: 1000, loop: busy });
      expect(await admission.runOptional(async () => 'ok').catch((e: unknown) => e)).to.be.instanceOf(
        SearchDeclinedError,
      );
      busy.busy = false;
      expect(await admission.runOptional(async () => 'ok')).to.equal('ok');
    });
  });
});
