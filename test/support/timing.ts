// The one allowance a test adds to the project's own deadlines when it bounds how long something took.
//
// Tests assert what happened (how many requests waited, which timed out, in which order); how fast this machine is
// belongs in the benches (bench/). Where a test must still bound a wait, so that a hang fails it, the bound is the
// deadline the project itself configures (the Redis command timeout, ES_REQUEST_TIMEOUT_MS, the sync poll
// interval…), imported from src/ or settings/, plus SHARED_MACHINE_SLACK_MS: never a number measured here.

/**
 * What a loaded, shared two-core machine may add on top of a deadline: a CI run has taken 721 ms for a request
 * that takes 5 ms alone, and a garbage collection or a neighbour's JVM start can stall a process for a second or
 * two. A hang is what these bounds catch, and a hang lasts until the test's own timeout (tens of seconds), so a
 * few seconds of slack costs no test its power to fail.
 */
export const SHARED_MACHINE_SLACK_MS = 3_000;

/** The most a wait may take when `deadlineMs`, a deadline of the project's own, is what ends it. */
export function boundedBy(deadlineMs: number): number {
  return deadlineMs + SHARED_MACHINE_SLACK_MS;
}
