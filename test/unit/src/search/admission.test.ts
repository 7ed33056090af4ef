import { expect } from 'chai';
import { Admission } from '../../../../src/search/admission.js';
import { SearchAbandonedError, SearchOverloadedError } from '../../../../src/search/errors.js';

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

describe('search/admission: searches in flight bounded, the rest refused at once', () => {
  it('runs at once while slots are free, queues up to the limit, refuses the rest without running them', async () => {
    const admission = new Admission({ maxLimit: 2, maxWaitMs: 60_000 });
    const searches = [held(), held(), held(), held(), held()];
    const results = searches.map((s) => admission.run(s.search).catch((error: unknown) => error));
    await settle();
    expect(searches.map((s) => s.started())).to.deep.equal([true, true, false, false, false]);
    expect(admission.state()).to.include({ limit: 2, inFlight: 2, queued: 2 });
    expect(await results[4])
      .to.be.instanceOf(SearchOverloadedError)
      .with.property('reason', 'queue full');
    expect(admission.state().shedding).to.equal(true);
    searches[0]!.release();
    await settle();
    expect(searches[2]!.started()).to.equal(true);
    for (const s of searches) s.release();
    expect(await Promise.all(results.slice(0, 4))).to.deep.equal(['answer', 'answer', 'answer', 'answer']);
  });

  it('refuses a search that found no slot within the wait, and never runs it', async () => {
    const admission = new Admission({ maxLimit: 1, maxWaitMs: 5 });
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

  it('a running search is never given up by the wait: the slot is held until it ends', async () => {
    const admission = new Admission({ maxLimit: 1, maxWaitMs: 1 });
    const first = held();
    const running = admission.run(first.search);
    const queued = held();
    const waiting = admission.run(queued.search);
    // The first one ends before the wait runs out: the queued one starts, and its wait is over.
    first.release();
    await running;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queued.started()).to.equal(true);
    expect(admission.state().inFlight).to.equal(1);
    queued.release();
    expect(await waiting).to.equal('answer');
  });

  it('a queued search whose client goes away leaves the queue, abandoned, not refused', async () => {
    const admission = new Admission({ maxLimit: 1, maxWaitMs: 60_000 });
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

  it('refuses at once a search whose turn would come after the wait, by the recent pace of searches', async () => {
    let clock = 0;
    const admission = new Admission({ maxLimit: 1, maxWaitMs: 50, now: () => clock });
    // One search of 100 ms measured: the mean latency moves towards it.
    await admission.run(async () => {
      clock += 100;
      return 'ok';
    });
    const first = held();
    const running = admission.run(first.search);
    const second = held();
    // A slot every ~5 ms (the mean so far is 1/20 of 100 ms): the first in the queue would wait about that: queued.
    const waiting = admission.run(second.search);
    expect(admission.state().queued).to.equal(1);
    first.release();
    await running;
    second.release();
    expect(await waiting).to.equal('answer');
    // Many slow searches later, the mean is near 100 ms: a search that would wait that long is refused at once.
    for (let i = 0; i < 60; i++) {
      await admission.run(async () => {
        clock += 100;
        return 'ok';
      });
    }
    const third = held();
    const busy = admission.run(third.search);
    const error = await admission.run(async () => 'never').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(SearchOverloadedError).with.property('reason', 'no slot in time');
    expect(admission.state().queued).to.equal(0);
    third.release();
    await busy;
  });

  it('lowers its limit after searches that were dropped (timeouts), by what outcomeOf says', async () => {
    const admission = new Admission({
      maxLimit: 16,
      maxWaitMs: 0,
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
});
