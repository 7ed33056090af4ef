// Whether the shared Redis store or the in-memory fallback is answering, with one log line per change.
import type { RateLimitLogger } from './logger.js';
import type { LimiterHealth } from './types.js';

type StoreState = 'connecting' | 'redis' | 'fallback';

export class RedisStoreHealth {
  #state: StoreState = 'connecting';
  #reason = 'connecting to Redis; in-memory limits apply meanwhile';
  #ticketsIssued = 0;
  #newestApplied = 0;

  constructor(private readonly logger: RateLimitLogger) {}

  /**
   * Taken when an observation starts (a consume call, a connection event). Calls overlap, so a slow call
   * that started before a newer observation must not overwrite it: Redis that just came back would
   * otherwise read as down again when a request that timed out during the outage finally settles.
   */
  ticket(): number {
    this.#ticketsIssued += 1;
    return this.#ticketsIssued;
  }

  redisAnswered(ticket: number): void {
    if (!this.#isNewest(ticket) || this.#state === 'redis') return;
    const previous = this.#state;
    this.#state = 'redis';
    this.#reason = '';
    if (previous === 'fallback') {
      this.logger.info({ rateLimitStore: 'redis' }, 'rate limit: Redis answers again; shared limits apply');
    } else {
      this.logger.info(
        { rateLimitStore: 'redis' },
        'rate limit: Redis ready; limits are shared by every instance',
      );
    }
  }

  redisFailed(ticket: number, reason: string): void {
    if (!this.#isNewest(ticket) || this.#state === 'fallback') return;
    this.#state = 'fallback';
    this.#reason = reason;
    this.logger.warn(
      { rateLimitStore: 'memory', reason },
      'rate limit: Redis unavailable; falling back to in-memory limits for this instance',
    );
  }

  current(): LimiterHealth {
    if (this.#state === 'redis') return { status: 'ok', store: 'redis' };
    return { status: 'degraded', store: 'redis', detail: this.#reason };
  }

  #isNewest(ticket: number): boolean {
    if (ticket < this.#newestApplied) return false;
    this.#newestApplied = ticket;
    return true;
  }
}
