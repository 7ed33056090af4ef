// Every failure of the indexer ends with one sentence on stderr for the operator: what failed, what it means for the
// live index, and what to do next. This module turns any error into that (and its exit code); the CLI prints it
// last, after the structured log.
import { CommanderError } from 'commander';
import { ConfigError } from '../../settings/variables.js';
import { elasticsearchFailure } from '../elasticsearch/elasticsearchErrors.js';
import { EXIT_CODES, IndexerError } from '../exitCodes.js';
import { InterruptedError, UsageError } from '../errors.js';
import { InvalidSourceError } from '../sources/validateSource.js';
import { SourceSyntaxError } from '../sources/source.js';
import { MassRemovalError } from '../changes/removalGuard.js';
import { terminalSafe } from '../terminalText.js';

/** What the CLI knew of the run when it failed. */
export interface RunContext {
  /** The subcommand (reindex, sync, …), once commander has read it. */
  command?: string;
  /** The alias, once resolved. */
  alias?: string;
  /** The Elasticsearch nodes (ES_URL), once read. */
  esNodes?: readonly string[];
  /** sync: the run has begun applying changes (past its checks and its lock). */
  applying?: boolean;
}

export interface Failure {
  exitCode: number;
  /** What failed, in a line. */
  what: string;
  /** What to do next. */
  next: string;
}

function helpHint(context: RunContext): string {
  return `see ppa-indexer${context.command ? ` ${context.command}` : ''} --help`;
}

/** The failure behind any error the CLI catches. */
export function describeFailure(error: unknown, context: RunContext): Failure {
  const failure = (exitCode: number, what: string, next: string): Failure => ({
    exitCode,
    what: what.replace(/\s*\n\s*/g, ' ').trim(),
    next,
  });
  if (error instanceof CommanderError) {
    const what = error.message.replace(/^error: /, '');
    if (error.code === 'commander.help')
      return failure(
        EXIT_CODES.usage,
        'no command given',
        'name one: reindex, sync, validate, status, rollback or searches',
      );
    return failure(EXIT_CODES.usage, what, helpHint(context));
  }
  if (error instanceof ConfigError) {
    const what = error.problems.map((problem) => problem.message).join('; ');
    return failure(
      EXIT_CODES.usage,
      what,
      'fix the variable or option named (docs/operations.md, "Configuration reference")',
    );
  }
  if (error instanceof UsageError) return failure(EXIT_CODES.usage, error.message, helpHint(context));
  if (error instanceof InterruptedError)
    return failure(error.exitCode, `interrupted by ${error.reason}`, error.hint);
  if (error instanceof InvalidSourceError) {
    const next =
      context.command === 'reindex'
        ? 'fix them in the source, or pass --skip-invalid to index the valid ones'
        : 'fix them in the source';
    return failure(error.exitCode, error.summary, next);
  }
  if (error instanceof SourceSyntaxError) {
    return failure(
      error.exitCode,
      error.message,
      'fix the JSON array, or write the source as NDJSON, where one bad record does not hide the rest',
    );
  }
  const elasticsearch = elasticsearchFailure(error, context.esNodes ?? []);
  if (elasticsearch) return failure(elasticsearch.exitCode, elasticsearch.message, elasticsearch.hint);
  if (error instanceof IndexerError) {
    return failure(error.exitCode, error.message, error.hint ?? 'look at the log above, then run again');
  }
  const message = error instanceof Error ? error.message : String(error);
  return failure(
    EXIT_CODES.failure,
    message,
    'run again with LOG_LEVEL=debug for the stack trace, and report it if it happens again',
  );
}

/** What the failure means for the live index, by command: every failure of a reindex leaves the alias alone. */
function liveIndexOutcome(context: RunContext, interrupted: boolean, guarded: boolean): string {
  const alias = context.alias ? `the live alias "${context.alias}"` : 'the live alias';
  if (guarded) {
    return context.command === 'sync'
      ? 'nothing was applied to the live index (a --follow run keeps retrying)'
      : `the new index was deleted and ${alias} was not changed`;
  }
  switch (context.command) {
    case 'reindex':
      return interrupted
        ? `the half-built index was deleted and ${alias} was not changed`
        : `${alias} was not changed`;
    case 'sync':
      return context.applying
        ? 'the live index keeps what this run applied so far, and its high-water mark did not move (the next run starts again from it)'
        : 'nothing was applied to the live index';
    case 'rollback':
      return `${alias} was not moved`;
    case 'validate':
    case 'status':
      return 'nothing was written (it only reads)';
    default:
      return 'nothing was changed';
  }
}

/**
 * The closing sentence: `ppa-indexer reindex failed (exit 3): Elasticsearch at http://127.0.0.1:9 cannot be
 * reached (…); the live alias "ppas" was not changed. Next: check ES_URL and that Elasticsearch is running, then run
 * again.` One line, terminal-safe (a path or a slug from the source may hold control characters).
 */
export function failureSentence(error: unknown, failure: Failure, context: RunContext): string {
  const interrupted = error instanceof InterruptedError;
  const command = `ppa-indexer${context.command ? ` ${context.command}` : ''}`;
  const verb = interrupted ? 'stopped' : 'failed';
  const outcome = liveIndexOutcome(context, interrupted, error instanceof MassRemovalError);
  const what = failure.what.replace(/[.;:]+$/, '');
  return terminalSafe(
    `${command} ${verb} (exit ${failure.exitCode}): ${what}; ${outcome}. Next: ${failure.next}.`,
  );
}
