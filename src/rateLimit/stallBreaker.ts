// Keeps a stalled Redis (connected but silent, e.g. CLIENT PAUSE or overload) from costing every request the
// full command timeout: after a timeout, only one request per probe interval asks Redis; the rest go straight
// to the in-memory fallback until a probe is answered.
export class RedisStallBreaker {
  #stalled = false;
  #nextProbeAt = 0;

  constructor(
    private readonly probeIntervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether this request should ask Redis; while stalled, the first caller after each interval probes. */
  shouldAskRedis(): boolean {
    if (!this.#stalled) return true;
    if (this.now() < this.#nextProbeAt) return false;
    // Claim the probe, so requests arriving while it is in flight do not wait for a timeout too.
    this.#nextProbeAt = this.now() + this.probeIntervalMs;
    return true;
  }

  redisTimedOut(): void {
    this.#stalled = true;
    this.#nextProbeAt = this.now() + this.probeIntervalMs;
  }

  redisAnswered(): void {
    this.#stalled = false;
  }
}
