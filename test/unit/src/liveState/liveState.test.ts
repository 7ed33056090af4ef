import { expect } from 'chai';
import { LiveState } from '../../../../src/liveState/liveState.js';
import { servedStateAt } from '../../../support/servedState.js';

const served = servedStateAt;

describe('liveState: what is served now, in one place', () => {
  it('looks up nothing until asked; a move of the generation makes the next served state a new reading', async () => {
    let generation = 'ppas-1@0';
    let generationLookups = 0;
    let servedReads = 0;
    const live = new LiveState({
      lookups: {
        liveGeneration: () => {
          generationLookups++;
          return Promise.resolve(generation);
        },
        servedState: () => Promise.resolve(served(++servedReads)),
        ready: () => Promise.resolve({ cluster: true, alias: true }),
        liveIndex: () => Promise.resolve('ppas-1'),
        indexContract: () => Promise.resolve(null),
        vocabularyPage: () => Promise.resolve({ words: [], after: undefined }),
        flagFences: () => Promise.resolve(null),
      },
      limiter: { health: () => ({ status: 'degraded', store: 'redis', detail: 'away' }) },
    });
    try {
      expect(generationLookups).to.equal(0);
      expect((await live.served.current()).head?.seq).to.equal(1);
      expect((await live.served.current()).head?.seq).to.equal(1); // within 2 s: the same reading
      const watcher = live.generation();
      expect(live.generation()).to.equal(watcher); // one watcher, one poll
      await watcher.poll();
      expect(watcher.current()).to.equal('ppas-1@0');
      generation = 'ppas-2@0';
      await watcher.poll();
      expect(watcher.current()).to.equal('ppas-2@0');
      expect((await live.served.current()).head?.seq).to.equal(2); // read anew after the move
      expect(live.limiterHealth()).to.deep.equal({ status: 'degraded', store: 'redis', detail: 'away' });
    } finally {
      live.close();
    }
  });

  it("reads each generation's peer fences once, keeps a few generations, and retries a failed read", async () => {
    const reads: string[] = [];
    let failNext = false;
    const fencesOf = (index: string) => ({
      methodology_version: 1,
      computed_at: '2026-01-01T00:00:00Z',
      groups: [{ technology: index, currency: 'USD', count: 10, q1: 1, q3: 2, fence: 3.5 }],
    });
    const live = new LiveState({
      lookups: {
        liveGeneration: () => Promise.resolve('ppas-1@0'),
        servedState: () => Promise.resolve(served(1)),
        ready: () => Promise.resolve({ cluster: true, alias: true }),
        liveIndex: () => Promise.resolve('ppas-1'),
        indexContract: () => Promise.resolve(null),
        vocabularyPage: () => Promise.resolve({ words: [], after: undefined }),
        flagFences: (index) => {
          reads.push(index!);
          if (failNext) {
            failNext = false;
            return Promise.reject(new Error('timed out'));
          }
          return Promise.resolve(fencesOf(index!));
        },
      },
      limiter: { health: () => ({ status: 'ok', store: 'redis' }) },
    });
    // Each generation's own fences: a detail read from the old index during a swap gets the old ones.
    expect((await live.flagPeers('ppas-1'))('ppas-1', 'USD')?.fence).to.equal(3.5);
    expect((await live.flagPeers('ppas-2'))('ppas-1', 'USD')).to.equal(undefined);
    expect((await live.flagPeers('ppas-2'))('ppas-2', 'USD')?.count).to.equal(10);
    expect(reads).to.deep.equal(['ppas-1', 'ppas-2']);
    // A failed read answers its caller with the failure and is read again next time.
    failNext = true;
    let failed: unknown;
    await live.flagPeers('ppas-3').catch((error: unknown) => (failed = error));
    expect(failed).to.be.instanceOf(Error);
    expect((await live.flagPeers('ppas-3'))('ppas-3', 'USD')?.fence).to.equal(3.5);
    // At most four generations kept: the oldest is read again once more have come.
    await live.flagPeers('ppas-4');
    await live.flagPeers('ppas-5');
    await live.flagPeers('ppas-1');
    expect(reads).to.deep.equal(['ppas-1', 'ppas-2', 'ppas-3', 'ppas-3', 'ppas-4', 'ppas-5', 'ppas-1']);
    live.close();
  });
});
