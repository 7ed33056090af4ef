import { expect } from 'chai';
import type { VocabularyPage } from '../../../../src/liveState/lookups.js';
import { readVocabulary, VocabularyWatcher } from '../../../../src/liveState/vocabularyWatcher.js';

/** A generation the test moves, with the listeners the watcher registers. */
function generationOf(initial: string | null) {
  let current = initial;
  const listeners: ((generation: string | null) => void)[] = [];
  return {
    current: () => current,
    onChange: (listener: (generation: string | null) => void) => void listeners.push(listener),
    move(to: string) {
      current = to;
      for (const listener of listeners) listener(to);
    },
  };
}

/** Pages of two words each over `words`, counting the walks (a walk asks from the start, `after` undefined). */
function pagesOf(words: [string, number][]) {
  const walks = { count: 0 };
  const page = (after: string | undefined): Promise<VocabularyPage> => {
    if (after === undefined) walks.count++;
    const from = after === undefined ? 0 : words.findIndex(([word]) => word === after) + 1;
    const slice = words.slice(from, from + 2);
    return Promise.resolve({ words: slice, after: from + 2 < words.length ? slice.at(-1)?.[0] : undefined });
  };
  return { page, walks };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('liveState: the vocabulary of the served generation (vocabularyWatcher.ts, issue 69)', () => {
  it('walks every page, keeping the commonest words within the bound', async () => {
    const { page } = pagesOf([
      ['a', 1],
      ['b', 5],
      ['c', 2],
      ['d', 9],
      ['e', 3],
    ]);
    const all = await readVocabulary(page);
    expect(all.size).to.equal(5);
    const bounded = await readVocabulary(page, 2);
    expect([bounded.count('d'), bounded.count('b'), bounded.count('a')]).to.deep.equal([9, 5, 0]);
  });

  it('reads in the background: at once for another index, after a while for a sync, again after a failure', async () => {
    const generation = generationOf('ppas-1@0');
    const { page, walks } = pagesOf([
      ['kafue', 3],
      ['gorge', 5],
      ['south', 1],
    ]);
    let now = 0;
    let failing = false;
    const watcher = new VocabularyWatcher({
      page: (after) => (failing ? Promise.reject(new Error('away')) : page(after)),
      generation,
      reloadAfterSyncMs: 50,
      retryMs: 20,
      now: () => now,
    });
    try {
      await settle();
      expect(walks.count).to.equal(1);
      expect(watcher.current()?.count('gorge')).to.equal(5);
      // A sync's change: read again, but not before reloadAfterSyncMs since the last walk began.
      generation.move('ppas-1@1');
      await settle();
      expect(walks.count).to.equal(1);
      now = 100;
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(walks.count).to.equal(2);
      // Another index: at once; a failed walk keeps the last vocabulary and is tried again.
      failing = true;
      generation.move('ppas-2@0');
      await settle();
      expect(watcher.current()?.count('kafue')).to.equal(3);
      failing = false;
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(walks.count).to.equal(3);
    } finally {
      watcher.close();
    }
  });

  it('reads nothing while the generation is unknown', async () => {
    const { page, walks } = pagesOf([['kafue', 3]]);
    const watcher = new VocabularyWatcher({ page, generation: generationOf(null) });
    await settle();
    expect(walks.count).to.equal(0);
    expect(watcher.current()).to.equal(undefined);
    watcher.close();
  });
});
