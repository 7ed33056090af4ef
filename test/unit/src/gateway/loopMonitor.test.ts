import { expect } from 'chai';
import {
  LoopMonitor,
  LOOP_SAMPLE_INTERVAL_MS,
  SATURATED_DELAY_MS,
} from '../../../../src/gateway/loopMonitor.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const spin = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe("search/loopMonitor: the process's own event loop", function () {
  this.timeout(10_000);
  let monitor: LoopMonitor;
  before(() => {
    monitor = new LoopMonitor();
  });
  after(() => monitor.close());

  it('reads a quiet loop as quiet', async () => {
    await sleep(4 * LOOP_SAMPLE_INTERVAL_MS);
    expect(monitor.saturated()).to.equal(false);
    // Quiet: below the delay the monitor itself reads as saturation.
    expect(monitor.delayMs()).to.be.below(SATURATED_DELAY_MS);
  });

  it('is not saturated by one long pause (a garbage collection, a large answer)', async () => {
    spin(300);
    let highest = 0;
    let everSaturated = false;
    for (let i = 0; i < 20; i++) {
      await sleep(LOOP_SAMPLE_INTERVAL_MS / 5);
      highest = Math.max(highest, monitor.delayMs());
      everSaturated ||= monitor.saturated();
    }
    expect(highest).to.be.above(10); // seen, once
    expect(everSaturated).to.equal(false);
  });

  it('is saturated by a loop that stays busy, and no longer once it is not', async () => {
    // Busy 80 ms of every 90, for a second: every interval's callbacks wait.
    const busy = setInterval(() => spin(80), 10);
    try {
      await sleep(1000);
      expect(monitor.saturated()).to.equal(true);
    } finally {
      clearInterval(busy);
    }
    await sleep(3 * LOOP_SAMPLE_INTERVAL_MS);
    expect(monitor.saturated()).to.equal(false);
  });
});
