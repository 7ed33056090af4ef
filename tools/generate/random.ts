// A small seeded PRNG (mulberry32) and the draws the generator needs: same seed, same records, on every machine.

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Random.pick: empty list');
    return item;
  }

  /** Picks by cumulative weights (precomputed with `cumulative`). */
  pickWeighted<T>(items: readonly T[], cumulativeWeights: readonly number[]): T {
    const total = cumulativeWeights[cumulativeWeights.length - 1] ?? 0;
    const target = this.next() * total;
    let low = 0;
    let high = cumulativeWeights.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulativeWeights[middle] ?? 0) > target) high = middle;
      else low = middle + 1;
    }
    return items[low] as T;
  }

  /** k distinct items, in the order of the list. */
  sample<T>(items: readonly T[], k: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(k, items.length)) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((a, b) => a - b).map((index) => items[index] as T);
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal fitted to a p10 / median / p90 triple. */
  logNormal(p10: number, median: number, p90: number): number {
    const sigma = (Math.log(p90) - Math.log(p10)) / (2 * 1.2816);
    return Math.exp(Math.log(median) + sigma * this.normal());
  }
}

export function cumulative(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((weight) => (sum += weight));
}
