// One day's searches that found nothing, kept in this process: what an instance counts without Redis (or while
// Redis is away), by the same rules as the shared count's script (settings/zeroResults.ts: RECORD_SCRIPT), so that
// the bounds hold either way.
import { MAX_CLIENTS_KEPT, MAX_QUERIES_PER_DAY, type DayCounts } from '../../settings/zeroResults.js';

/** Counts a search of `query` by `client` into `counts`; false when the day was full and the query not kept. */
export function countSearch(counts: DayCounts, query: string, client: string): boolean {
  if (!counts.searches.has(query) && counts.searches.size >= MAX_QUERIES_PER_DAY) {
    const lowest = lowestCounted(counts.searches);
    if (lowest === undefined || lowest[1] > 1) return false;
    counts.searches.delete(lowest[0]);
    counts.clients.delete(lowest[0]);
  }
  counts.searches.set(query, (counts.searches.get(query) ?? 0) + 1);
  const clients = counts.clients.get(query) ?? [];
  if (!clients.includes(client) && clients.length < MAX_CLIENTS_KEPT)
    counts.clients.set(query, [...clients, client]);
  return true;
}

/** The query searched least (ties: the first by code point, as Redis orders a sorted set's ties). */
function lowestCounted(searches: ReadonlyMap<string, number>): [string, number] | undefined {
  let lowest: [string, number] | undefined;
  for (const entry of searches) {
    if (!lowest || entry[1] < lowest[1] || (entry[1] === lowest[1] && entry[0] < lowest[0])) lowest = entry;
  }
  return lowest;
}

export function emptyDay(): DayCounts {
  return { searches: new Map(), clients: new Map() };
}
