// Typed failures of the indexer; the CLI maps each to its exit code (see EXIT_CODES).
import { describeInvalidRecord, type SourceReport } from './validateSource.js';

export const EXIT_CODES = {
  ok: 0,
  invalidRecords: 1,
  usage: 2,
  failure: 3,
  locked: 4,
  interrupted: 130, // SIGINT; SIGTERM exits 143 (128 + signal number)
  terminated: 143,
} as const;

/** The source has invalid records and --skip-invalid was not given: nothing was written. */
export class InvalidSourceError extends Error {
  constructor(readonly report: SourceReport) {
    const listed = report.invalidRecords
      .slice(0, 20)
      .map((record) => `  ${describeInvalidRecord(record, report.format)}`);
    const more = report.invalid > listed.length ? [`  … and ${report.invalid - listed.length} more`] : [];
    super(
      [
        `${report.invalid} invalid record(s) of ${report.read}; nothing was indexed:`,
        ...listed,
        ...more,
      ].join('\n'),
    );
  }
}

/** The source has no published record: going live with an empty index would empty the public API. */
export class EmptySourceError extends Error {}

/** Another run holds the reindex lock of this alias. */
export class LockedError extends Error {}

/** A bad option or environment variable. */
export class UsageError extends Error {}

/** The run was stopped by a signal (or an AbortSignal); its half-built index was removed. */
export class InterruptedError extends Error {
  constructor(readonly reason: string) {
    super(`interrupted (${reason}); the alias was left where it was`);
  }
}

/** A document that Elasticsearch refused (after retries for 429). */
export class BulkRejectedError extends Error {}

/** The source file was written to between the validation pass and the end of the load (exit 3, alias kept). */
export class SourceChangedError extends Error {
  constructor(path: string) {
    super(`the source changed during the run (${path}): what was loaded is not what was validated`);
  }
}
