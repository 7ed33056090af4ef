// The indexer's exit codes, and the error class that carries one (as Koa's errors carry their status).

export const EXIT_CODES = {
  ok: 0,
  invalidRecords: 1,
  usage: 2,
  failure: 3,
  locked: 4,
  interrupted: 130, // SIGINT; SIGTERM exits 143 (128 + signal number)
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** A failure the CLI reports in a line of its own (no stack) and exits with `exitCode`. */
export class IndexerError extends Error {
  readonly exitCode: ExitCode = EXIT_CODES.failure;
}
