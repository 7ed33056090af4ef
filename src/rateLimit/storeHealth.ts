// Whether the shared Redis store or the in-memory fallback is answering, with one log line per change.
// The connection as a whole (one Redis, a Sentinel group's master, or a Cluster) has a state; in a Cluster each
// master can fail on its own too (its keys fall back while the other masters still share), so a failing master
// gets a state of its own until it answers again.
import { WHOLE_STORE } from '../../settings/redisClient.js';
import type { RateLimitLogger } from './limiterLog.js';
import type { LimiterHealth } from './types.js';

type StoreState = 'connecting' | 'redis' | 'fallback';

export class RedisStoreHealth {
  #state: StoreState = 'connecting';
  #reason = 'connecting to Redis; in-memory limits apply meanwhile';
  /** Cluster masters that failed and have not answered since, with why. */
  readonly #failingServers = new Map<string, string>();
  #ticketsIssued = 0;
  readonly #newestApplied = new Map<string, number>();

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

  redisAnswered(ticket: number, server = WHOLE_STORE): void {
    if (!this.#isNewest(ticket, server)) return;
    if (server !== WHOLE_STORE) {
      if (!this.#failingServers.delete(server)) return;
      this.logger.info(
        { rateLimitStore: 'redis', redisServer: server },
        'rate limit: Redis answers again; shared limits apply',
      );
      return;
    }
    if (this.#state === 'redis') return;
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

  redisFailed(ticket: number, reason: string, server = WHOLE_STORE): void {
    if (!this.#isNewest(ticket, server)) return;
    if (server !== WHOLE_STORE) {
      if (this.#failingServers.has(server)) return;
      this.#failingServers.set(server, reason);
      this.logger.warn(
        { rateLimitStore: 'memory', redisServer: server, reason },
        'rate limit: Redis unavailable; falling back to in-memory limits for this instance',
      );
      return;
    }
    if (this.#state === 'fallback') return;
    this.#state = 'fallback';
    this.#reason = reason;
    this.logger.warn(
      { rateLimitStore: 'memory', reason },
      'rate limit: Redis unavailable; falling back to in-memory limits for this instance',
    );
  }

  /** `holdsKeys` tells whether a failing master still serves slots (after a failover it no longer counts). */
  current(holdsKeys: (server: string) => boolean = () => true): LimiterHealth {
    if (this.#state !== 'redis') return { status: 'degraded', store: 'redis', detail: this.#reason };
    const failing = [...this.#failingServers].filter(([server]) => holdsKeys(server));
    if (failing.length === 0) return { status: 'ok', store: 'redis' };
    return { status: 'degraded', store: 'redis', detail: failing.map(([, reason]) => reason).join('; ') };
  }

  #isNewest(ticket: number, server: string): boolean {
    if (ticket < (this.#newestApplied.get(server) ?? 0)) return false;
    this.#newestApplied.set(server, ticket);
    return true;
  }
}
