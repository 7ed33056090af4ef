// The request's abort signal, carried through everything a request's work awaits without being passed down:
// withRequestSignal sets it for a piece of work, currentRequestSignal reads it anywhere inside, and none is seen
// outside a request. How a request gets its signal (and when it aborts) is abandon.test.ts's.
import { expect } from 'chai';
import { currentRequestSignal, withRequestSignal } from '../../../../src/http/requestSignal.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('http/requestSignal: the signal of the request being answered', () => {
  it('is none outside a request, before and after one', async () => {
    expect(currentRequestSignal()).to.equal(undefined);
    await withRequestSignal(new AbortController().signal, tick);
    expect(currentRequestSignal()).to.equal(undefined);
  });

  it("gives back the work's own result, a value or a promise", async () => {
    const signal = new AbortController().signal;
    expect(withRequestSignal(signal, () => 42)).to.equal(42);
    expect(await withRequestSignal(signal, async () => 'done')).to.equal('done');
    let error: unknown;
    await withRequestSignal(signal, async () => {
      throw new Error('failed');
    }).catch((caught: unknown) => (error = caught));
    expect((error as Error).message).to.equal('failed');
  });

  it('is seen after awaits, timers and callbacks of the work, the very signal given', async () => {
    const controller = new AbortController();
    const seen = await withRequestSignal(controller.signal, async () => {
      const first = currentRequestSignal();
      await tick();
      const afterAwait = currentRequestSignal();
      const inTimer = await new Promise((resolve) => setTimeout(() => resolve(currentRequestSignal()), 1));
      return [first, afterAwait, inTimer];
    });
    // (AbortSignals compare deep-equal to each other: each is checked by identity.)
    for (const signal of seen) expect(signal === controller.signal).to.equal(true);
    expect(seen).to.have.length(3);
  });

  it('keeps each request its own, however their work interleaves', async () => {
    const one = new AbortController().signal;
    const two = new AbortController().signal;
    const work = async () => {
      const seen: (AbortSignal | undefined)[] = [];
      for (let step = 0; step < 3; step++) {
        await tick();
        seen.push(currentRequestSignal());
      }
      return seen;
    };
    const [first, second] = await Promise.all([withRequestSignal(one, work), withRequestSignal(two, work)]);
    expect(first.map((signal) => signal === one)).to.deep.equal([true, true, true]);
    expect(second.map((signal) => signal === two)).to.deep.equal([true, true, true]);
  });

  it('lets inner work run under another signal, the outer one seen again after it', async () => {
    const outer = new AbortController().signal;
    const inner = new AbortController().signal;
    const seen = await withRequestSignal(outer, async () => {
      const within = await withRequestSignal(inner, async () => {
        await tick();
        return currentRequestSignal();
      });
      return [within, currentRequestSignal()];
    });
    expect([seen[0] === inner, seen[1] === outer]).to.deep.equal([true, true]);
  });
});
