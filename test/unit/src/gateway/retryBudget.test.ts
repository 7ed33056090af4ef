import { expect } from 'chai';
import { RetryBudget } from '../../../../src/gateway/retryBudget.js';

describe('search/retryBudget: retries as a share of requests', () => {
  it('starts with its cap, then allows `ratio` retries per request once that is spent', () => {
    const budget = new RetryBudget({ ratio: 0.1, minPerSecond: 0, cap: 3 }, 0);
    expect([1, 2, 3, 4].map(() => budget.tryWithdraw(0))).to.deep.equal([true, true, true, false]);
    for (let i = 0; i < 9; i++) budget.deposit(0);
    expect(budget.tryWithdraw(0)).to.equal(false);
    budget.deposit(0);
    expect(budget.tryWithdraw(0)).to.equal(true);
    expect(budget.tryWithdraw(0)).to.equal(false);
  });

  it('refills minPerSecond with time alone, never above its cap', () => {
    const budget = new RetryBudget({ ratio: 0, minPerSecond: 2, cap: 3 }, 0);
    for (let i = 0; i < 3; i++) budget.tryWithdraw(0);
    expect(budget.tryWithdraw(0)).to.equal(false);
    expect(budget.tryWithdraw(500)).to.equal(true);
    expect(budget.tryWithdraw(500)).to.equal(false);
    let granted = 0;
    for (let i = 0; i < 10; i++) if (budget.tryWithdraw(60_000)) granted++;
    expect(granted).to.equal(3);
  });

  it('bounds the retries of a failure storm to the share of its requests', () => {
    const budget = new RetryBudget({ ratio: 0.1, minPerSecond: 5, cap: 20 }, 0);
    let retries = 0;
    // 10,000 requests over 10 s, every one failing and asking for a retry.
    for (let i = 0; i < 10_000; i++) {
      const now = i; // 1 ms apart
      budget.deposit(now);
      if (budget.tryWithdraw(now)) retries++;
    }
    // 10 % of the requests, 5 a second for 10 s and the starting cap.
    expect(retries).to.be.at.most(1000 + 50 + 20);
    expect(retries).to.be.at.least(1000);
  });
});
