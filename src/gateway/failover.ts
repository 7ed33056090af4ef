// One read tried again on another node when its node failed (refused, reset, 502/503/504, timed out), all within
// the request's one deadline (./attempts.ts) and the instance's retry budget (./retryBudget.ts). The client's own
// retry is off (maxRetries 0): it would give each attempt the full timeout again.
import type { Client } from '@elastic/elasticsearch';
import { afterFailure, attemptTimeoutMs, startBudget, type AttemptBudget } from './attempts.js';
import { attemptFailure } from './clientErrors.js';
import { SearchAbandonedError } from './searchErrors.js';
import { NodeProbe } from './nodeProbe.js';
import { DEFAULT_RETRY_BUDGET, RetryBudget } from './retryBudget.js';

/** The options of one attempt: its share of the deadline, no retry by the client, the request's abort signal. */
export interface AttemptOptions {
  requestTimeout: number;
  maxRetries: 0;
  signal?: AbortSignal;
}

/** One attempt of a read: a client call made with the attempt's options. */
export type Attempt<T> = (options: AttemptOptions) => Promise<T>;

export class Failover {
  private readonly retries = new RetryBudget(DEFAULT_RETRY_BUDGET, performance.now());
  private readonly probe: NodeProbe;

  constructor(
    client: Client,
    private readonly requestTimeoutMs: number,
  ) {
    this.probe = new NodeProbe(client);
  }

  /** A read was asked for now: each one adds its share to the retry budget. */
  requested(now: number): void {
    this.retries.deposit(now);
  }

  /**
   * Runs `attempt` until one answers or the read must give up, within the deadline counted from `started` (so
   * the wait for admission is in it). When `signal` aborts, the read ends as abandoned.
   */
  async run<T>(attempt: Attempt<T>, started: number, signal: AbortSignal | undefined): Promise<T> {
    let budget = startBudget(started, this.requestTimeoutMs);
    for (;;) {
      try {
        return await attempt(attemptOptions(budget, signal));
      } catch (error) {
        if (signal?.aborted) throw new SearchAbandonedError({ cause: error });
        const next = await this.afterFailed(error, budget);
        if (!next) throw error;
        budget = next;
      }
    }
  }

  /** The budget of another attempt after a failed one, or undefined when `error` is the read's answer. */
  private async afterFailed(error: unknown, budget: AttemptBudget): Promise<AttemptBudget | undefined> {
    const failure = attemptFailure(error);
    if (failure === 'other') return undefined;
    // Under load a busy node's search sent elsewhere would be more load, not an answer.
    if (failure === 'timeout' && (await this.probe.isBusy(error, budget.deadline))) return undefined;
    const next = afterFailure(budget, failure, performance.now());
    return next && this.retries.tryWithdraw(performance.now()) ? next : undefined;
  }
}

function attemptOptions(budget: AttemptBudget, signal: AbortSignal | undefined): AttemptOptions {
  return {
    requestTimeout: attemptTimeoutMs(budget, performance.now()),
    maxRetries: 0,
    // A signal of the attempt's own, following the request's: the client ends an attempt that times out by
    // dispatching 'abort' on the signal it was given, which must not reach the request's other searches.
    ...(signal ? { signal: AbortSignal.any([signal]) } : {}),
  };
}
