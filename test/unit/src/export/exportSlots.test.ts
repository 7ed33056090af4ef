// Exports at once: one per client, a bound per instance, each slot given back once.
import { expect } from 'chai';
import { EXPORT_RETRY_AFTER_SECONDS, ExportSlots } from '../../../../src/export/exportSlots.js';
import { ProblemError } from '../../../../src/http/problem.js';

const refusal = (take: () => unknown): ProblemError => {
  try {
    take();
  } catch (error) {
    expect(error).to.be.instanceOf(ProblemError);
    return error as ProblemError;
  }
  throw new Error('expected a refusal');
};

describe('export/exportSlots', () => {
  it('gives a client one slot at a time and the instance its bound, each refusal a 429 with Retry-After', () => {
    const slots = new ExportSlots(2);
    const release = slots.acquire('a');
    const second = refusal(() => slots.acquire('a'));
    expect(second.status).to.equal(429);
    expect(second.detail).to.include('one at a time');
    expect(second.headers).to.deep.equal({ 'Retry-After': String(EXPORT_RETRY_AFTER_SECONDS) });
    slots.acquire('b');
    expect(refusal(() => slots.acquire('c')).detail).to.include('2 exports are running');
    expect(slots.running).to.equal(2);
    release();
    release();
    expect(slots.running).to.equal(1);
    expect(() => slots.acquire('a')).to.not.throw();
  });
});
