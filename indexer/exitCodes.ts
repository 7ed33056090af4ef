// The indexer's exit codes: one table, each row its code(s) by name and what it means for the live index. The
// names (EXIT_CODES), the rows printed by --help (exitCodeHelp) and docs/operations.md's table are all read from
// it. Also the error class that carries a code (as Koa's errors carry their status). A shared module: it imports
// nothing of the indexer.

const EXIT_CODE_ROWS = [
  { codes: { ok: 0 }, meaning: 'success (also: --if-missing found the alias, nothing to do)' },
  {
    codes: { invalidRecords: 1 },
    meaning:
      'invalid records in the source (listed by line, slug and field), or no valid published record; nothing was written',
  },
  {
    // A bad option or setting, or a source that cannot be opened: fix the command line or the source.
    codes: { usage: 2 },
    meaning:
      'usage or source error: a bad option or ES_* variable; a source that is missing, unreadable or a directory, or a PostgreSQL source that cannot be opened; nothing was written',
  },
  {
    codes: { failure: 3 },
    meaning:
      'Elasticsearch unreachable or refusing a request (its URL named), or another failure during the run; the alias was left where it was',
  },
  {
    codes: { locked: 4 },
    meaning: 'another reindex (or, for sync, another sync) of the alias is running: the lock is held',
  },
  {
    codes: { guard: 5 },
    meaning:
      'the --max-removed guard (default 5% of the live PPAs): a reindex stopped before its swap, or a sync run applied nothing, because it would have removed more; the live alias and documents were not changed',
  },
  {
    codes: { storeUnreachable: 6 },
    meaning:
      'searches: the Redis of REDIS_URL (where the API counts the searches that found nothing) did not answer; nothing was read',
  },
  // 128 + the signal's number.
  {
    codes: { interrupted: 130, terminated: 143 },
    meaning: 'interrupted by SIGINT, SIGTERM; the half-built index was deleted',
  },
] as const;

type Row = (typeof EXIT_CODE_ROWS)[number];
type CodesOf<R> = R extends { codes: infer C } ? C : never;
type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

/** Every exit code by name (from the table). */
export const EXIT_CODES = Object.freeze(
  Object.assign({}, ...EXIT_CODE_ROWS.map((row) => row.codes)),
) as UnionToIntersection<CodesOf<Row>>;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** The table as --help and docs/operations.md show it: the code(s) of a row, and what they mean. */
export const EXIT_CODE_TABLE: readonly { code: string; meaning: string }[] = EXIT_CODE_ROWS.map(
  ({ codes, meaning }) => ({ code: Object.values(codes).join(', '), meaning }),
);

/** The "Exit codes:" section of --help, a line a row. */
export function exitCodeHelp(): string {
  return ['Exit codes:', ...EXIT_CODE_TABLE.map(({ code, meaning }) => `  ${code.padEnd(9)}${meaning}`)].join(
    '\n',
  );
}

/** A failure the CLI reports in a sentence of its own (no stack) and exits with `exitCode`. */
export class IndexerError extends Error {
  readonly exitCode: ExitCode = EXIT_CODES.failure;
  /** What the operator can do next, when the failure knows better than its kind (indexer/commands/failure.ts). */
  readonly hint?: string;
}
