import { expect } from 'chai';
import {
  afterFailure,
  attemptTimeoutMs,
  MAX_ATTEMPTS,
  MIN_ATTEMPT_MS,
  startBudget,
  type AttemptBudget,
} from '../../../../src/gateway/attempts.js';

describe('search/attempts: retries within one deadline', () => {
  it('the first attempt keeps a third of the deadline for a retry on another node', () => {
    const budget = startBudget(1000, 2000);
    expect(budget.deadline).to.equal(3000);
    expect(attemptTimeoutMs(budget, 1000)).to.equal(1334);
  });

  it('after a timeout, the retry gets exactly the time left, and there is no third try after a second timeout', () => {
    const first = startBudget(0, 2000);
    const second = afterFailure(first, 'timeout', 1334)!;
    expect(second).to.deep.equal({ deadline: 2000, attempts: 1, timedOut: true });
    expect(attemptTimeoutMs(second, 1334)).to.equal(666);
    expect(afterFailure(second, 'timeout', 2000)).to.equal(undefined);
  });

  it('a node that fails fast is retried on the others, up to MAX_ATTEMPTS in all', () => {
    let budget: AttemptBudget | undefined = startBudget(0, 2000);
    const timeouts: number[] = [];
    let attempts = 0;
    while (budget) {
      attempts++;
      timeouts.push(attemptTimeoutMs(budget, attempts));
      budget = afterFailure(budget, 'node', attempts);
    }
    expect(attempts).to.equal(MAX_ATTEMPTS);
    // The last attempt gets all that is left; none ends past the deadline.
    expect(timeouts.at(-1)).to.equal(2000 - MAX_ATTEMPTS);
    timeouts.forEach((timeout, index) => expect(index + 1 + timeout).to.be.at.most(2000));
  });

  it('never retries past the deadline, nor a failure that is not the node', () => {
    const budget = startBudget(0, 2000);
    expect(afterFailure(budget, 'node', 2000 - MIN_ATTEMPT_MS + 1)).to.equal(undefined);
    expect(afterFailure(budget, 'node', 2000 - MIN_ATTEMPT_MS)).to.not.equal(undefined);
    expect(afterFailure(budget, 'other', 10)).to.equal(undefined);
  });

  it('a deadline too short to split goes whole to one attempt; a passed deadline still gives a 1 ms timeout', () => {
    const budget = startBudget(0, 100);
    expect(attemptTimeoutMs(budget, 0)).to.equal(100);
    expect(attemptTimeoutMs(budget, 500)).to.equal(1);
  });

  it('whatever fails, the attempts add up to at most the deadline', () => {
    for (const failures of [
      ['timeout', 'node'],
      ['node', 'timeout'],
      ['node', 'node'],
    ] as const) {
      let now = 0;
      let budget: AttemptBudget | undefined = startBudget(now, 2000);
      for (const failure of failures) {
        if (!budget) break;
        now += failure === 'timeout' ? attemptTimeoutMs(budget, now) : 5;
        budget = afterFailure(budget, failure, now);
      }
      if (budget) now += attemptTimeoutMs(budget, now);
      expect(now, failures.join(',')).to.be.at.most(2000);
    }
  });
});
