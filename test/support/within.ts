// Waiting for a condition that the system under test makes true by itself (a sync applied, a cache moved on).

/** Polls `check` every `pollMs` until it holds; returns the milliseconds it took, fails past `limitMs`. */
export async function within(
  limitMs: number,
  what: string,
  check: () => Promise<boolean>,
  pollMs = 100,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`${what}: not true after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
