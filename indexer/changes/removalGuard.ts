// --max-removed: how many of the live PPAs one reindex, or one sync run, may take away before it stops instead
// (docs/record.md, "The change log and the guards"). A share ("5%", the default) of the PPAs served before the
// change, or a count ("250"). A broken export or a truncated table then cannot empty the public site by accident.
import { InvalidArgumentError } from 'commander';
import { EXIT_CODES, IndexerError } from '../exitCodes.js';

export type RemovalLimit = { share: number } | { count: number };

export const DEFAULT_MAX_REMOVED = '5%';

/** "5%", "12.5%", "100%" or a count "250" (commander's parser: a bad value is a usage error naming the option). */
export function parseRemovalLimit(value: string): RemovalLimit {
  const share = /^(\d{1,3}(?:\.\d+)?)%$/.exec(value.trim());
  if (share) {
    const percent = Number(share[1]);
    if (percent > 100) throw new InvalidArgumentError('expected a share from 0% to 100%, or a count');
    return { share: percent / 100 };
  }
  if (/^(?:0|[1-9]\d*)$/.test(value.trim())) return { count: Number(value.trim()) };
  throw new InvalidArgumentError('expected a share such as 5% or a count such as 250');
}

export function describeLimit(limit: RemovalLimit): string {
  return 'share' in limit ? `${+(limit.share * 100).toFixed(4)}%` : String(limit.count);
}

/** The most removals the limit allows out of `live` PPAs. */
export function allowedRemovals(limit: RemovalLimit, live: number): number {
  return 'share' in limit ? Math.floor(limit.share * live + 1e-9) : limit.count;
}

/** The change would remove more than --max-removed allows: nothing was applied. */
export class MassRemovalError extends IndexerError {
  override readonly exitCode = EXIT_CODES.guard;
  override readonly hint: string;
  constructor(
    readonly what: 'reindex' | 'sync',
    readonly removals: number,
    readonly live: number,
    readonly limit: RemovalLimit,
  ) {
    const share = live > 0 ? ` (${+((removals / live) * 100).toFixed(1)}%)` : '';
    super(
      `${what === 'reindex' ? 'the new generation' : 'this sync run'} would remove ${removals} of the ${live} live PPAs` +
        `${share}, more than --max-removed ${describeLimit(limit)} allows`,
    );
    this.hint =
      what === 'reindex'
        ? 'check the source (ppa-indexer reindex --plan lists what would be removed); if the removals are meant, run the same reindex again with --max-removed 100%'
        : 'check the source relation (a TRUNCATE, a bad UPDATE?); if the removals are meant, run ppa-indexer sync once with --max-removed 100%';
  }
}

/** Throws MassRemovalError when `removals` out of `live` exceed the limit. */
export function checkRemovals(
  what: 'reindex' | 'sync',
  removals: number,
  live: number,
  limit: RemovalLimit,
): void {
  if (removals > allowedRemovals(limit, live)) throw new MassRemovalError(what, removals, live, limit);
}
