// Typed failures of the indexer. Each carries its exit code (as Koa's errors carry their status), so the CLI's
// mapping is a lookup; anything else is exit 3. A `hint` says what to do next (indexer/commands/failure.ts). A
// shared module: the failures of one part live in that part (sources/sourceErrors.ts, the invalid-records error
// beside the validation that finds them), so this file imports nothing of the indexer's folders.
import { EXIT_CODES, IndexerError, type ExitCode } from './exitCodes.js';

export { EXIT_CODES, IndexerError };

/** The source has no published record: going live with an empty index would empty the public API. */
export class EmptySourceError extends IndexerError {
  override readonly exitCode = EXIT_CODES.invalidRecords;
  override readonly hint = 'check that --source names the right file or relation';
}

/** Another run holds the reindex lock of this alias. */
export class LockedError extends IndexerError {
  override readonly exitCode = EXIT_CODES.locked;
  override readonly hint =
    'wait for that run to end (ppa-indexer status shows the lock), then run again; the lock of a run that died expires by itself';
}

/** A bad option or environment variable. */
export class UsageError extends IndexerError {
  override readonly exitCode = EXIT_CODES.usage;
}

/** The run was stopped by a signal (or an AbortSignal); its half-built index was removed. */
export class InterruptedError extends IndexerError {
  override readonly exitCode: ExitCode;
  override readonly hint = 'run it again when ready';
  constructor(readonly reason: string) {
    super(`interrupted (${reason}); the alias was left where it was`);
    this.exitCode = reason === 'SIGINT' ? EXIT_CODES.interrupted : EXIT_CODES.terminated;
  }
}

/** A document that Elasticsearch refused (after retries for 429). */
export class BulkRejectedError extends IndexerError {}

/** The source file was written to between the validation pass and the end of the load (exit 3, alias kept). */
export class SourceChangedError extends IndexerError {
  override readonly hint =
    'do not write to the source while a reindex reads it: export to a new file (or pass it with --source -), then run again';
  constructor(path: string) {
    super(`the source changed during the run (${path}): what was loaded is not what was validated`);
  }
}

/** Nothing built before the live index is left to roll back to. */
export class NothingToRollBackError extends IndexerError {
  override readonly hint = 'nothing to roll back to (ppa-indexer status lists the indices kept)';
}

/** The abort signal fired: stop the run with an InterruptedError naming why. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new InterruptedError(String(signal.reason));
}
