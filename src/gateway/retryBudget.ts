// A retry budget (as Finagle and gRPC keep one): retries of failed attempts on another node are bounded as a share
// of requests, so that a cluster in trouble is never sent more work by the very retries meant to help. Each
// request deposits `ratio` of a retry, the clock adds `minPerSecond` (so a quiet instance can still fail over),
// and the balance holds at most `cap`. Pure: the caller passes the clock in.

export interface RetryBudgetOptions {
  /** Retries allowed per request, as a share (0.1: one retry for ten requests). */
  ratio: number;
  /** Retries allowed per second whatever the traffic. */
  minPerSecond: number;
  /** The most retries saved up. */
  cap: number;
}

export const DEFAULT_RETRY_BUDGET: RetryBudgetOptions = { ratio: 0.1, minPerSecond: 5, cap: 20 };

export class RetryBudget {
  private balance: number;
  private updatedAt: number;

  constructor(
    private readonly options: RetryBudgetOptions,
    now: number,
  ) {
    this.balance = options.cap;
    this.updatedAt = now;
  }

  /** A request was made. */
  deposit(now: number): void {
    this.refill(now);
    this.balance = Math.min(this.options.cap, this.balance + this.options.ratio);
  }

  /** Takes one retry from the budget; false when it is spent. */
  tryWithdraw(now: number): boolean {
    this.refill(now);
    // (A tenth added ten times is 0.999…: the balance is compared with a little slack.)
    if (this.balance < 1 - 1e-9) return false;
    this.balance -= 1;
    return true;
  }

  private refill(now: number): void {
    const seconds = Math.max(0, now - this.updatedAt) / 1000;
    this.updatedAt = now;
    this.balance = Math.min(this.options.cap, this.balance + seconds * this.options.minPerSecond);
  }
}
