// How many times, and for how long each, one search may be tried within its request's deadline
// (ES_REQUEST_TIMEOUT_MS). Pure: the gateway passes the clock in. A search is idempotent, so trying it again on
// another node is safe; the deadline is one for the whole request, never one per attempt.

/** Attempts of one search at most: the first, and a retry on each of two other nodes. */
export const MAX_ATTEMPTS = 3;
/** Below this much time left, another attempt could not get an answer anyway: give up. */
export const MIN_ATTEMPT_MS = 50;

/** Why an attempt failed: the node (refused, reset, answered 502/503/504), its time ran out, or anything else. */
export type AttemptFailure = 'node' | 'timeout' | 'other';

export interface AttemptBudget {
  /** The request's deadline, on the caller's clock (ms). */
  deadline: number;
  /** Attempts made so far. */
  attempts: number;
  /** Whether an attempt has already timed out (after that the last one gets all the time left). */
  timedOut: boolean;
}

export function startBudget(now: number, requestTimeoutMs: number): AttemptBudget {
  return { deadline: now + requestTimeoutMs, attempts: 0, timedOut: false };
}

/**
 * The timeout of the next attempt. The first attempt keeps a third of the time in reserve, so that a node that
 * hangs leaves time for one attempt on another node; after one timeout (or when a third is too little to use)
 * the attempt gets everything left. A node that fails fast (refused, reset) costs almost nothing.
 */
export function attemptTimeoutMs(budget: AttemptBudget, now: number): number {
  const remaining = Math.max(1, Math.floor(budget.deadline - now));
  if (budget.timedOut || budget.attempts + 1 >= MAX_ATTEMPTS) return remaining;
  const reserve = Math.floor(remaining / 3);
  return reserve >= MIN_ATTEMPT_MS ? remaining - reserve : remaining;
}

/** The budget of the next attempt after a failed one, or undefined when the search must give up. */
export function afterFailure(
  budget: AttemptBudget,
  failure: AttemptFailure,
  now: number,
): AttemptBudget | undefined {
  const attempts = budget.attempts + 1;
  if (failure === 'other' || attempts >= MAX_ATTEMPTS) return undefined;
  if (budget.deadline - now < MIN_ATTEMPT_MS) return undefined;
  if (failure === 'timeout') {
    // One retry after a timeout: a second one would mean the cluster, not a node, is slow.
    if (budget.timedOut) return undefined;
    return { ...budget, attempts, timedOut: true };
  }
  return { ...budget, attempts };
}
