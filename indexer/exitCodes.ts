// The indexer's exit codes, the one table that explains them (--help and docs/operations.md), and the error class
// that carries one (as Koa's errors carry their status).

export const EXIT_CODES = {
  ok: 0,
  invalidRecords: 1,
  /** A bad option or setting, or a source that cannot be opened: fix the command line or the source. */
  usage: 2,
  /** Elasticsearch unreachable or refusing, or another failure during the run. */
  failure: 3,
  locked: 4,
  /** The --max-removed guard: a reindex or sync run would remove too many live PPAs; nothing was applied. */
  guard: 5,
  interrupted: 130, // SIGINT; SIGTERM exits 143 (128 + signal number)
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** One row of the exit-code table: the code(s) and what they mean for the live index. */
export const EXIT_CODE_TABLE: readonly { code: string; meaning: string }[] = [
  { code: '0', meaning: 'success (also: --if-missing found the alias, nothing to do)' },
  {
    code: '1',
    meaning:
      'invalid records in the source (listed by line, slug and field), or no valid published record; nothing was written',
  },
  {
    code: '2',
    meaning:
      'usage or source error: a bad option or ES_* variable; a source that is missing, unreadable or a directory, or a PostgreSQL source that cannot be opened; nothing was written',
  },
  {
    code: '3',
    meaning:
      'Elasticsearch unreachable or refusing a request (its URL named), or another failure during the run; the alias was left where it was',
  },
  {
    code: '4',
    meaning: 'another reindex (or, for sync, another sync) of the alias is running: the lock is held',
  },
  {
    code: '5',
    meaning:
      'the --max-removed guard (default 5% of the live PPAs): a reindex stopped before its swap, or a sync run applied nothing, because it would have removed more; the live alias and documents were not changed',
  },
  { code: '130, 143', meaning: 'interrupted by SIGINT, SIGTERM; the half-built index was deleted' },
];

/** A failure the CLI reports in a sentence of its own (no stack) and exits with `exitCode`. */
export class IndexerError extends Error {
  readonly exitCode: ExitCode = EXIT_CODES.failure;
  /** What the operator can do next, when the failure knows better than its kind (indexer/failure.ts). */
  readonly hint?: string;
}
