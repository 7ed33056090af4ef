// The generation the alias serves, as one instance sees it: trusted only while fresh, changes told to listeners.
import { expect } from 'chai';
import { GenerationWatcher } from '../../../../src/liveState/generationWatcher.js';

describe('liveState/generationWatcher', () => {
  it('knows the generation while its last answer is fresh, and tells each change once', async () => {
    let clock = 0;
    let live: string | null = 'ppas-1@0';
    let failing = false;
    const told: (string | null)[] = [];
    const watcher = new GenerationWatcher({
      liveGeneration: async () => {
        if (failing) throw new Error('down');
        return live;
      },
      pollIntervalMs: 1_000_000,
      freshForMs: 100,
      now: () => clock,
    });
    watcher.onChange((index) => told.push(index));
    await watcher.poll();
    expect(watcher.current()).to.equal('ppas-1@0');
    await watcher.poll();
    live = 'ppas-2@0';
    clock = 50;
    await watcher.poll();
    expect(watcher.current()).to.equal('ppas-2@0');
    // A failed lookup keeps the last answer only while it is fresh.
    failing = true;
    clock = 140;
    await watcher.poll();
    expect(watcher.current()).to.equal('ppas-2@0');
    clock = 151;
    expect(watcher.current()).to.equal(null);
    failing = false;
    live = null;
    await watcher.poll();
    expect(watcher.current()).to.equal(null);
    expect(told).to.deep.equal(['ppas-1@0', 'ppas-2@0', null]);
    watcher.close();
  });

  it('shares one lookup between calls made while it runs', async () => {
    let lookups = 0;
    const watcher = new GenerationWatcher({
      liveGeneration: async () => {
        lookups++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return 'ppas-1@0';
      },
      pollIntervalMs: 1_000_000,
    });
    await Promise.all([watcher.poll(), watcher.poll(), watcher.poll()]);
    expect(lookups).to.be.at.most(2); // the constructor's own poll, and at most one more
    watcher.close();
  });
});
