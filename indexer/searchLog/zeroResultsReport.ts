// What people failed to find, as `ppa-indexer searches --zero-results` reports it: the days' counts read from the
// Redis the API counts them in (settings/zeroResults.ts), reported by its privacy rule, and each query tried again on
// the API as it answers today (it may have been fixed since). The try sends Sec-GPC: 1, so the API does not count
// it: an operator's check never makes a query reportable.
import { createRedisConnection, whenReady } from '../../settings/redisClient.js';
import {
  lastDays,
  MIN_CLIENTS_REPORTED,
  readDayCounts,
  reportZeroResults,
  type DayCounts,
  type ZeroResultsRow,
} from '../../settings/zeroResults.js';
import { EXIT_CODES, IndexerError } from '../exitCodes.js';

/** The store did not answer. */
export class StoreUnreachableError extends IndexerError {
  override readonly exitCode = EXIT_CODES.storeUnreachable;
  override readonly hint =
    'check REDIS_URL and that the Redis the API instances use answers (their /health/ready shows zero_results)';
}

export interface ZeroResultsReport {
  from: string;
  to: string;
  minClients: number;
  queries: (ZeroResultsRow & { findsNow: boolean | null })[];
}

export interface ReportOptions {
  redisUrl: string;
  days: number;
  limit: number;
  /** The API the queries are tried on; absent: not tried (findsNow null). */
  apiUrl?: string;
  now?: Date;
}

const REDIS_TIMEOUT_MS = 3000;

/** Every day's counts, newest first; a store that does not answer is a StoreUnreachableError. */
async function readDays(redisUrl: string, days: readonly string[]): Promise<Map<string, DayCounts>> {
  const { client } = createRedisConnection(redisUrl, { commandTimeoutMs: REDIS_TIMEOUT_MS });
  // A failed connection is said by the first command; its own events would only repeat it.
  client.on('error', () => undefined);
  try {
    await whenReady(client, REDIS_TIMEOUT_MS);
    const counts = new Map<string, DayCounts>();
    for (const day of days) counts.set(day, await readDayCounts(client, day));
    return counts;
  } catch (error) {
    throw new StoreUnreachableError(
      `the Redis of REDIS_URL did not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  } finally {
    client.disconnect();
  }
}

/** Whether the API finds something for `query` today; null when the API cannot say. */
export async function findsNow(apiUrl: string, query: string): Promise<boolean | null> {
  const url = `${apiUrl.replace(/\/+$/, '')}/api/v1/ppas?per_page=1&fields=slug&q=${encodeURIComponent(query)}`;
  try {
    const response = await fetch(url, { headers: { 'Sec-GPC': '1' }, signal: AbortSignal.timeout(5000) });
    if (!response.ok) return null;
    const body = (await response.json()) as { meta?: { total?: unknown } };
    return typeof body.meta?.total === 'number' ? body.meta.total > 0 : null;
  } catch {
    return null;
  }
}

export async function zeroResultsReport(options: ReportOptions): Promise<ZeroResultsReport> {
  const days = lastDays(options.now ?? new Date(), options.days);
  const rows = reportZeroResults(await readDays(options.redisUrl, days), options.limit);
  const queries = [];
  for (const row of rows) {
    queries.push({ ...row, findsNow: options.apiUrl ? await findsNow(options.apiUrl, row.query) : null });
  }
  return { from: days[days.length - 1]!, to: days[0]!, minClients: MIN_CLIENTS_REPORTED, queries };
}

/** The report as the terminal shows it. */
export function describeZeroResults(report: ZeroResultsReport): string {
  const head =
    `Searches that found nothing, ${report.from} to ${report.to} (UTC), each shown once ${report.minClients} ` +
    'different clients sent it on one day:';
  if (report.queries.length === 0) return `${head}\n  none`;
  const finds = (value: boolean | null) => (value === null ? 'unknown' : value ? 'yes' : 'no');
  const lines = report.queries.map(
    (row) =>
      `  ${String(row.searches).padStart(8)}  ${`${row.clients}${row.clientsAtLeast ? '+' : ''}`.padStart(7)}  ` +
      `${String(row.days).padStart(4)}  ${finds(row.findsNow).padEnd(9)}  ${row.query}`,
  );
  return [head, `  searches  clients  days  finds now  query`, ...lines].join('\n');
}

/** The report as --json prints it. */
export function zeroResultsJson(report: ZeroResultsReport): object {
  return {
    from: report.from,
    to: report.to,
    min_clients: report.minClients,
    queries: report.queries.map((row) => ({
      query: row.query,
      searches: row.searches,
      clients: row.clients,
      clients_at_least: row.clientsAtLeast,
      days: row.days,
      last_day: row.lastDay,
      finds_now: row.findsNow,
    })),
  };
}
