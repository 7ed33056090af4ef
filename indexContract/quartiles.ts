// Quartiles by linear interpolation between closest ranks ("type 7": numpy's and R's default), the rule the red
// flags' tariff fences are computed by (indexContract/flags.ts). Pure.

/**
 * The `p`-quantile (0 ≤ p ≤ 1) of `values` by type 7: sorted ascending, h = (n − 1)·p, the value at rank ⌊h⌋ plus
 * (h − ⌊h⌋) of the step to the next. Throws on an empty list.
 */
export function quantileType7(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('no values: a quantile needs at least one');
  if (!(p >= 0 && p <= 1)) throw new Error(`p must be in [0, 1], got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * p;
  const low = Math.floor(h);
  const lower = sorted[low]!;
  const upper = sorted[Math.min(low + 1, sorted.length - 1)]!;
  return lower + (h - low) * (upper - lower);
}

/** Q1 and Q3 of `values` (type 7). */
export function quartiles(values: readonly number[]): { q1: number; q3: number } {
  return { q1: quantileType7(values, 0.25), q3: quantileType7(values, 0.75) };
}
