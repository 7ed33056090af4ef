// Which generation the alias serves, as this instance last saw it: the concrete index and its data version
// (indexContract/dataVersion.ts), from one cheap lookup every POLL_INTERVAL_MS (the alias's filtered _mapping),
// never one per request. The answer counts only while it is fresh: past FRESH_FOR_MS without a successful lookup
// the generation is unknown, so neither a swap nor a sync's change is missed for longer than that (the cache then
// stops serving until the cluster answers again).

/** Between two alias lookups. */
export const POLL_INTERVAL_MS = 2_000;
/** How long a lookup's answer is trusted: a change is noticed within this (2 s polls: a failed one may pass). */
export const FRESH_FOR_MS = 4_500;

export interface GenerationWatcherOptions {
  /** The generation behind the alias: its concrete index and data version (null: the alias is missing). */
  liveGeneration: () => Promise<string | null>;
  pollIntervalMs?: number;
  freshForMs?: number;
  /** Time source (tests). */
  now?: () => number;
}

export class GenerationWatcher {
  private index: string | null = null;
  private confirmedAt = -Infinity;
  private readonly listeners: ((index: string | null) => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly freshForMs: number;
  private polling: Promise<void> | undefined;

  constructor(private readonly options: GenerationWatcherOptions) {
    this.now = options.now ?? Date.now;
    this.freshForMs = options.freshForMs ?? FRESH_FOR_MS;
    this.timer = setInterval(() => void this.poll(), options.pollIntervalMs ?? POLL_INTERVAL_MS);
    this.timer.unref();
    void this.poll();
  }

  /** The generation being served, or null when it is not known for sure right now. */
  current(): string | null {
    return this.now() - this.confirmedAt <= this.freshForMs ? this.index : null;
  }

  onChange(listener: (index: string | null) => void): void {
    this.listeners.push(listener);
  }

  /** One lookup (also what the timer runs); concurrent calls share it. */
  poll(): Promise<void> {
    this.polling ??= this.lookUp().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async lookUp(): Promise<void> {
    const askedAt = this.now(); // the answer tells the state at the time of asking
    let index: string | null;
    try {
      index = await this.options.liveGeneration();
    } catch {
      return; // unknown until a lookup succeeds; current() goes null once the last answer is too old
    }
    const changed = index !== this.index;
    this.index = index;
    this.confirmedAt = askedAt;
    if (changed) for (const listener of this.listeners) listener(index);
  }
}
