// What the parts of the mix suite (bench/mix.ts) share: its log, its settings for one record count, the API's
// environment in it, and the check that turns a failing load run into a broken benchmark.
import type { LoadResult } from '../perf/load.js';
import type { RequestKind } from '../perf/requestMix.js';
import type { RunSettings } from '../perf/tables.js';

/**
 * The main run cycles through its 1,000 requests again and again, so the API's response cache would answer
 * nearly all of them: it measures the uncached path (bench/scale.ts measures the cache, on traffic that repeats
 * the way public traffic does, and on traffic that never repeats).
 */
export const WITHOUT_RESPONSE_CACHE = { RESPONSE_CACHE_MB: '0' };

/** Beyond this share of failed requests a load run counts as broken (the API or the cluster is failing). */
export const MAX_ERROR_SHARE = 0.01;

export class BreakageError extends Error {}

export const log = (message: string): void => {
  process.stderr.write(`bench: ${message}\n`);
};

export function checkLoad(result: LoadResult, what: string): void {
  const total = result.ok + result.errors;
  if (result.ok === 0 || result.errors / Math.max(1, total) > MAX_ERROR_SHARE) {
    throw new BreakageError(
      `${what}: ${result.ok} answers of ${total} were 2xx (statuses ${JSON.stringify(result.statuses)})`,
    );
  }
}

export interface CountSettings extends RunSettings {
  profile: boolean;
  /** Also load the own documents without each field family (bench/perf/indexing.ts FIELD_FAMILIES). */
  mappingCost: boolean;
  /** The kinds measured alone (--kinds; all of them by default). */
  kinds: readonly RequestKind[];
}

export type Sides<T> = Record<'api' | 'raw', T>;
