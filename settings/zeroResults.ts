// What people fail to find: the searches that came back empty, counted by folded `q` per UTC day in the rate
// limiter's Redis (REDIS_URL), so that every instance adds to one count. The API writes it (src/zeroResults/), the
// indexer's `searches --zero-results` reads it; this is their one description of it.
//
// Private by construction: a day's queries are kept with the clients that sent them, each client a keyed hash of
// its address whose key changes every day and lives under a key of its own that expires with the day (as Plausible
// Analytics does with its daily salts), so a day's hashes cannot be tied to an address once the day is over, nor
// to the same client on another day; a query is reported only once MIN_CLIENTS_REPORTED different clients sent it
// on one day, so a query typed by one person never shows. Bounded: MAX_QUERIES_PER_DAY queries a day (a full day
// keeps those asked more than once), MAX_CLIENTS_KEPT clients a query, every key expiring after the retention.
import { foldText } from '../indexContract/text/fold.js';

export const DEFAULT_ZERO_RESULTS_RETENTION_DAYS = 30;
export const MAX_ZERO_RESULTS_RETENTION_DAYS = 366;
/** A query is reported once this many different clients sent it on one day. */
export const MIN_CLIENTS_REPORTED = 3;
/** Queries a day keeps at most. */
export const MAX_QUERIES_PER_DAY = 1000;
/** Clients a query keeps at most on one day: enough to say "this many or more". */
export const MAX_CLIENTS_KEPT = 20;
const KEY_PREFIX = 'ppa-zero-results:';

/** A query as it is counted: folded (case, accents, ligatures) and its runs of spaces made one. */
export function foldedQuery(q: string): string {
  return foldText(q).replace(/\s+/gu, ' ').trim();
}

/** The UTC day of a time, as the keys name it (YYYY-MM-DD). */
export const dayOf = (time: Date): string => time.toISOString().slice(0, 10);

/** The UTC days from `days - 1` days before `now` to now's, newest first. */
export function lastDays(now: Date, days: number): string[] {
  return Array.from({ length: days }, (_, back) => dayOf(new Date(now.getTime() - back * 86_400_000)));
}

/** Seconds since the epoch at which a day's keys expire: the end of the day plus the retention. */
export function expiresAt(day: string, retentionDays: number): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000 + (retentionDays + 1) * 86_400;
}

/**
 * A day's keys: its queries (a sorted set: query → searches) and their clients (a hash: query → the client
 * hashes, comma-joined). The braces put both in one Cluster slot, so one script updates them together.
 */
export function dayKeys(day: string): { queries: string; clients: string } {
  return { queries: `${KEY_PREFIX}{${day}}:queries`, clients: `${KEY_PREFIX}{${day}}:clients` };
}

/** The key of a day's client-hashing key: apart from the counts, and gone an hour after the day ends. */
export function daySaltKey(day: string): { key: string; expiresAt: number } {
  return { key: `${KEY_PREFIX}salt:${day}`, expiresAt: Date.parse(`${day}T00:00:00Z`) / 1000 + 25 * 3600 };
}

/**
 * Counts one search that found nothing. KEYS: the day's queries and clients; ARGV: the folded query, the client's
 * hash, MAX_QUERIES_PER_DAY, MAX_CLIENTS_KEPT, the keys' expiry (epoch seconds). A new query on a full day takes
 * the place of one asked only once, else it is not kept. Returns 1 when counted, 0 when the day was full.
 */
export const RECORD_SCRIPT = `
local query = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], query) then
  if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
    local lowest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    if tonumber(lowest[2]) > 1 then return 0 end
    redis.call('ZREM', KEYS[1], lowest[1])
    redis.call('HDEL', KEYS[2], lowest[1])
  end
end
redis.call('ZINCRBY', KEYS[1], 1, query)
local clients = redis.call('HGET', KEYS[2], query) or ''
local client = ARGV[2]
if not string.find(',' .. clients .. ',', ',' .. client .. ',', 1, true) then
  local kept = 0
  if clients ~= '' then kept = select(2, string.gsub(clients, ',', '')) + 1 end
  if kept < tonumber(ARGV[4]) then
    if clients == '' then clients = client else clients = clients .. ',' .. client end
    redis.call('HSET', KEYS[2], query, clients)
  end
end
redis.call('EXPIREAT', KEYS[1], ARGV[5])
redis.call('EXPIREAT', KEYS[2], ARGV[5])
return 1
`;

/** One day's counts as they were kept: query → searches, and query → its clients' hashes. */
export interface DayCounts {
  searches: Map<string, number>;
  clients: Map<string, readonly string[]>;
}

/** A query reported: over the days it qualified on. */
export interface ZeroResultsRow {
  query: string;
  /** Different clients summed over the days it qualified on (a client on two days counts on each). */
  clients: number;
  /** Whether a day held MAX_CLIENTS_KEPT clients for it: `clients` is then a lower bound. */
  clientsAtLeast: boolean;
  searches: number;
  days: number;
  lastDay: string;
}

/**
 * The queries that found nothing on `days`, each only on the days MIN_CLIENTS_REPORTED clients or more sent it,
 * most searched first (then most clients, then the query), at most `limit`.
 */
export function reportZeroResults(days: ReadonlyMap<string, DayCounts>, limit: number): ZeroResultsRow[] {
  const rows = new Map<string, ZeroResultsRow>();
  for (const [day, counts] of days) {
    for (const [query, searches] of counts.searches) {
      const clients = counts.clients.get(query)?.length ?? 0;
      if (clients < MIN_CLIENTS_REPORTED) continue;
      const row = rows.get(query) ?? {
        query,
        clients: 0,
        clientsAtLeast: false,
        searches: 0,
        days: 0,
        lastDay: day,
      };
      row.clients += clients;
      row.clientsAtLeast ||= clients >= MAX_CLIENTS_KEPT;
      row.searches += searches;
      row.days += 1;
      if (day > row.lastDay) row.lastDay = day;
      rows.set(query, row);
    }
  }
  return [...rows.values()]
    .sort((a, b) => b.searches - a.searches || b.clients - a.clients || (a.query < b.query ? -1 : 1))
    .slice(0, limit);
}

/** What reading a day needs of a Redis client (ioredis's Redis and Cluster both have it). */
export interface DayReader {
  zrange(key: string, start: number, stop: number, withScores: 'WITHSCORES'): Promise<string[]>;
  hgetall(key: string): Promise<Record<string, string>>;
}

/** One day's counts as Redis holds them. */
export async function readDayCounts(redis: DayReader, day: string): Promise<DayCounts> {
  const keys = dayKeys(day);
  const [ranked, clients] = await Promise.all([
    redis.zrange(keys.queries, 0, -1, 'WITHSCORES'),
    redis.hgetall(keys.clients),
  ]);
  const searches = new Map<string, number>();
  for (let at = 0; at + 1 < ranked.length; at += 2) searches.set(ranked[at]!, Number(ranked[at + 1]));
  return {
    searches,
    clients: new Map(
      Object.entries(clients).map(([query, hashes]) => [query, hashes.split(',').filter(Boolean)]),
    ),
  };
}
