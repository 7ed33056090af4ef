import { expect } from 'chai';

const SHORT_WAIT_MS = 20;
import { boundedBy } from '../../../support/timing.js';
import type { ServedState } from '../../../../src/liveState/lookups.js';
import { servedStateAt } from '../../../support/servedState.js';
import { SearchUnavailableError } from '../../../../src/gateway/searchErrors.js';
import { ServedStateWatcher } from '../../../../src/liveState/servedStateWatcher.js';

const state = servedStateAt;

describe('liveState: the served-state watcher', () => {
  it('reads at most every 2 s, answers a reading up to 5 s old at once while reading anew, waits past that', async () => {
    let now = 0;
    let reads = 0;
    let failing = false;
    const watcher = new ServedStateWatcher({
      now: () => now,
      read: () => {
        reads++;
        return failing ? Promise.reject(new Error('down')) : Promise.resolve(state(reads));
      },
    });
    expect((await watcher.current()).head?.seq).to.equal(1);
    now = 1_999;
    expect((await watcher.current()).head?.seq).to.equal(1);
    expect(reads).to.equal(1);
    now = 3_000; // stale: the old reading now, a new one under way
    expect((await watcher.current()).head?.seq).to.equal(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).to.equal(2);
    expect((await watcher.current()).head?.seq).to.equal(2);
    now = 20_000; // too old: waits for the new reading
    expect((await watcher.current()).head?.seq).to.equal(3);
    watcher.invalidate(); // the generation moved: a new reading even within 2 s
    expect((await watcher.current()).head?.seq).to.equal(4);
    failing = true;
    now = 40_000; // the cluster fails: the last reading, however old
    expect((await watcher.current()).head?.seq).to.equal(4);
  });

  it('waits at most waitMs for a slow cluster, then answers the last reading; with none it fails', async () => {
    let slow = false;
    let now = 0;
    const watcher = new ServedStateWatcher({
      now: () => now,
      waitMs: SHORT_WAIT_MS,
      read: () => (slow ? new Promise<ServedState>(() => undefined) : Promise.resolve(state(7))),
    });
    await watcher.current();
    slow = true;
    now = 60_000;
    const started = performance.now();
    expect((await watcher.current()).head?.seq).to.equal(7);
    // Its waitMs ends the wait: the read never answers.
    expect(performance.now() - started).to.be.below(boundedBy(SHORT_WAIT_MS));
    const never = new ServedStateWatcher({ read: () => Promise.reject(new Error('down')) });
    let error: unknown;
    await never.current().catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(SearchUnavailableError);
  });
});
