// The searches that came back empty, counted by folded q (settings/zeroResults.ts says how and why so): in the
// rate limiter's Redis when REDIS_URL is set, shared by every instance; in this process otherwise, and while Redis
// does not answer (readiness says which). Counting never holds an answer up: it runs after the answer is sent,
// and a failure only moves the count to memory.
import { createHmac, randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { createRedisConnection, whenReady } from '../../settings/redisClient.js';
import {
  dayKeys,
  dayOf,
  daySaltKey,
  expiresAt,
  foldedQuery,
  MAX_CLIENTS_KEPT,
  MAX_QUERIES_PER_DAY,
  RECORD_SCRIPT,
  type DayCounts,
} from '../../settings/zeroResults.js';
import { countSearch, emptyDay } from './dayCounts.js';

/** How long a count waits for a connection that is not up yet before it goes to memory. */
const CONNECT_WAIT_MS = 1000;

/** A list search with q, as answered. */
export interface AnsweredSearch {
  q: string;
  found: boolean;
  /** The client as the rate limit keys it (its address, an IPv6 /64). */
  clientKey: string;
  /** The client asked not to be tracked (Sec-GPC: 1): its search is not kept. */
  optedOut: boolean;
}

/** Where the counts go now. */
export interface ZeroResultsStore {
  store: 'redis' | 'memory';
  /** Why memory, when it is memory. */
  detail: string | null;
  /** REDIS_URL is set: memory is then a fallback. */
  shared: boolean;
}

export interface ZeroResultsLog {
  /** Counts the search when it found nothing (and its client did not opt out); returns at once. */
  note(search: AnsweredSearch): void;
  store(): ZeroResultsStore;
  /** Settles the counts under way (for tests and a graceful stop). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface ZeroResultsLogOptions {
  redisUrl?: string;
  retentionDays: number;
  /** Redis commands past this count as failed (and the search is counted in memory). */
  commandTimeoutMs?: number;
  now?: () => Date;
  /** Told when Redis first fails (once an outage: the counts go to memory until it answers again). */
  onFailure?: (error: unknown) => void;
}

/** A client's hash on one day: HMAC of its key under the day's secret, short (a few hundred clients a query). */
export function clientHash(salt: Buffer | string, clientKey: string): string {
  return createHmac('sha256', salt).update(clientKey).digest('base64url').slice(0, 12);
}

/** The counts kept in this process: a day's counts, a day's own secret, the days past the retention dropped. */
class MemoryCounts {
  readonly days = new Map<string, DayCounts>();
  readonly #salts = new Map<string, Buffer>();
  constructor(private readonly retentionDays: number) {}

  count(day: string, query: string, clientKey: string): void {
    let salt = this.#salts.get(day);
    if (!salt) {
      salt = randomBytes(32);
      this.#salts.clear();
      this.#salts.set(day, salt);
    }
    if (!this.days.has(day)) this.days.set(day, emptyDay());
    countSearch(this.days.get(day)!, query, clientHash(salt, clientKey));
    const oldest = dayOf(new Date(Date.parse(`${day}T00:00:00Z`) - this.retentionDays * 86_400_000));
    for (const kept of this.days.keys()) if (kept < oldest) this.days.delete(kept);
  }
}

type RedisClient = Redis | Cluster;

export function createZeroResultsLog(options: ZeroResultsLogOptions): ZeroResultsLog {
  const now = options.now ?? (() => new Date());
  const memory = new MemoryCounts(options.retentionDays);
  const pending = new Set<Promise<void>>();
  const redis = options.redisUrl
    ? createRedisConnection(options.redisUrl, { commandTimeoutMs: options.commandTimeoutMs ?? 500 }).client
    : undefined;
  // A Redis that failed last: counted in memory until it answers again.
  let failure: string | null = null;
  const salts = new DaySalts();

  async function countShared(client: RedisClient, day: string, query: string, clientKey: string) {
    // Right after start (or a reconnect) the connection may not be up yet: a moment's wait, not a fallback.
    await whenReady(client, CONNECT_WAIT_MS);
    const salt = await salts.of(client, day);
    const keys = dayKeys(day);
    await client.eval(
      RECORD_SCRIPT,
      2,
      keys.queries,
      keys.clients,
      query,
      clientHash(salt, clientKey),
      MAX_QUERIES_PER_DAY,
      MAX_CLIENTS_KEPT,
      expiresAt(day, options.retentionDays),
    );
  }

  return {
    note({ q, found, clientKey, optedOut }) {
      if (found || optedOut) return;
      const query = foldedQuery(q);
      if (query === '') return;
      const day = dayOf(now());
      if (!redis) {
        memory.count(day, query, clientKey);
        return;
      }
      const counting = countShared(redis, day, query, clientKey).then(
        () => {
          failure = null;
        },
        (error: unknown) => {
          // Said once an outage, not once a search.
          if (failure === null) options.onFailure?.(error);
          failure = error instanceof Error ? error.message : String(error);
          memory.count(day, query, clientKey);
        },
      );
      pending.add(counting);
      void counting.finally(() => pending.delete(counting));
    },
    store() {
      if (!redis) {
        return {
          store: 'memory',
          detail: 'REDIS_URL is not set: this instance counts its own',
          shared: false,
        };
      }
      if (failure !== null) {
        return {
          store: 'memory',
          detail: `Redis failed (${failure}): counting in memory meanwhile`,
          shared: true,
        };
      }
      return { store: 'redis', detail: null, shared: true };
    },
    async flush() {
      await Promise.all([...pending]);
    },
    async close() {
      await Promise.all([...pending]);
      redis?.disconnect();
    },
  };
}

/**
 * The day's secret, shared by every instance through Redis: the first instance of the day sets it (SET NX), all
 * read the same, so one client hashes alike on all of them; it expires an hour after the day ends.
 */
class DaySalts {
  #day: string | null = null;
  #salt: string | null = null;

  async of(client: RedisClient, day: string): Promise<string> {
    if (this.#day === day && this.#salt !== null) return this.#salt;
    const { key, expiresAt: at } = daySaltKey(day);
    await client.set(key, randomBytes(32).toString('base64url'), 'EXAT', at, 'NX');
    const salt = await client.get(key);
    if (salt === null) throw new Error('the day’s secret vanished before it was read');
    this.#day = day;
    this.#salt = salt;
    return salt;
  }
}
