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
});
