import { expect } from 'chai';
import { GenerationWatcher } from '../../../../src/liveState/generationWatcher.js';
import type { Representation } from '../../../../src/wire/representation.js';
import { answerBytes, ResponseCache } from '../../../../src/wire/responseCache.js';

/** A watcher on a scripted alias and clock; poll() is called by hand (its timer is stopped). */
function scriptedWatcher(initial: string | null) {
  let index: string | null | Error = initial;
  let clock = 0;
  const watcher = new GenerationWatcher({
    liveGeneration: () => (index instanceof Error ? Promise.reject(index) : Promise.resolve(index)),
    pollIntervalMs: 60_000,
    freshForMs: 4_500,
    now: () => clock,
  });
  watcher.close();
  return {
    watcher,
    setIndex: (next: string | null | Error) => (index = next),
    advance: (ms: number) => (clock += ms),
  };
}

const answer = (size: number): Representation => ({
  type: 'application/json',
  size,
  body: Buffer.alloc(size, 'x'),
  etag: '"t"',
  encoded: {},
});

describe('api cache: generation watcher', () => {
  it('knows the generation only while its last lookup is fresh', async () => {
    const { watcher, setIndex, advance } = scriptedWatcher('ppas-1');
    await watcher.poll();
    expect(watcher.current()).to.equal('ppas-1');
    setIndex(new Error('cluster away'));
    advance(4_000);
    await watcher.poll();
    expect(watcher.current()).to.equal('ppas-1');
    advance(1_000);
    expect(watcher.current()).to.equal(null);
    setIndex('ppas-2');
    await watcher.poll();
    expect(watcher.current()).to.equal('ppas-2');
  });
});

describe('api cache: response cache', () => {
  it('keys name the generation; a swap empties the cache and old keys are never stored', async () => {
    const { watcher, setIndex } = scriptedWatcher('ppas-1');
    await watcher.poll();
    const cache = new ResponseCache({ maxBytes: 1_000_000, generation: watcher });
    const oldKey = cache.keyOf('list', 'q=a') ?? '';
    expect(oldKey).to.contain('ppas-1');
    cache.set(oldKey, answer(10));
    expect(cache.get(oldKey)).to.not.equal(undefined);
    setIndex('ppas-2');
    await watcher.poll();
    expect(cache.stats().entries).to.equal(0);
    expect(cache.keyOf('list', 'q=a')).to.not.equal(oldKey);
    cache.set(oldKey, answer(10)); // an answer computed before the swap, stored after it
    expect(cache.stats().entries).to.equal(0);
    expect(cache.stats()).to.include({ hits: 1, misses: 0 });
  });

  it('never holds more bytes than its bound, counting encodings added later', async () => {
    const { watcher } = scriptedWatcher('ppas-1');
    await watcher.poll();
    const cache = new ResponseCache({ maxBytes: 10_000, generation: watcher });
    for (let i = 0; i < 100; i += 1) {
      const key = cache.keyOf('list', `q=${i}`) ?? '';
      const entry = answer(1_000);
      cache.set(key, entry);
      entry.encoded.gzip = Buffer.alloc(300);
      cache.set(key, entry);
      expect(cache.stats().bytes).to.be.at.most(10_000);
    }
    // Full up to less than one entry: the least recently used went first.
    const entryBytes = answerBytes(answer(1_000)) + 300;
    expect(cache.stats().bytes).to.be.above(10_000 - 2 * entryBytes);
    expect(cache.get(cache.keyOf('list', 'q=0') ?? '')).to.equal(undefined);
    expect(cache.get(cache.keyOf('list', 'q=99') ?? '')).to.not.equal(undefined);
    const huge = cache.keyOf('list', 'huge') ?? '';
    cache.set(huge, answer(20_000));
    expect(cache.get(huge)).to.equal(undefined);
  });

  it("knows the front door's URLs: held while their answer is, forgotten on a swap, bounded in bytes", async () => {
    const { watcher, setIndex } = scriptedWatcher('ppas-1');
    await watcher.poll();
    const cache = new ResponseCache({ maxBytes: 1_000_000, generation: watcher });
    const key = cache.keyOf('list', 'q=a') ?? '';
    cache.set(key, answer(10));
    cache.rememberUrl('/api/v1/ppas?q=a', key);
    expect(cache.holdsAnswerTo('/api/v1/ppas?q=a')).to.equal(true);
    expect(cache.holdsAnswerTo('/api/v1/ppas?q=b')).to.equal(false);
    // A URL remembered for an answer the cache no longer holds does not pass.
    cache.rememberUrl('/api/v1/ppas?q=gone', cache.keyOf('list', 'q=gone') ?? '');
    expect(cache.holdsAnswerTo('/api/v1/ppas?q=gone')).to.equal(false);
    // Many long URLs: the first ones are forgotten, whatever the answers' cache holds.
    const long = 'x'.repeat(2_000);
    for (let i = 0; i < 2_000; i++) cache.rememberUrl(`/api/v1/ppas?q=${long}${i}`, key);
    expect(cache.holdsAnswerTo('/api/v1/ppas?q=a')).to.equal(false);
    expect(cache.holdsAnswerTo(`/api/v1/ppas?q=${long}1999`)).to.equal(true);
    setIndex('ppas-2');
    await watcher.poll();
    expect(cache.holdsAnswerTo(`/api/v1/ppas?q=${long}1999`)).to.equal(false);
  });
});
