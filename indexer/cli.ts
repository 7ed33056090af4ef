// ppa-indexer: reindex | sync | validate | status | rollback | searches, one file each in indexer/commands/. This file builds
// the program, runs it, and turns a failure into its exit code (the table: indexer/exitCodes.ts, also in --help and
// docs/operations.md) and one closing sentence on stderr (indexer/commands/failure.ts).
import { Command, CommanderError, Option } from 'commander';
import { INDEX_CONTRACT_VERSION, RELEASE } from '../indexContract/contract.js';
import { addReindexCommand } from './commands/reindex.js';
import { addRollbackCommand } from './commands/rollback.js';
import { addSearchesCommand } from './commands/searches.js';
import { addStatusCommand } from './commands/status.js';
import { addSyncCommand } from './commands/sync.js';
import { addValidateCommand } from './commands/validate.js';
import type { CliRun } from './commands/cliRun.js';
import { describeFailure, failureSentence } from './commands/failure.js';
import { AFTER_OPTIONS_HELP } from './commands/help.js';
import { EXIT_CODES } from './exitCodes.js';
import { createIndexerLogger, defaultLogFormat, isDebug, LOG_FORMATS, type LogFormat } from './indexerLog.js';
import { InvalidSourceError } from './sources/validateSource.js';

export function buildProgram(run: CliRun): Command {
  const program = new Command()
    .name('ppa-indexer')
    .description('Builds and manages the PPA search index behind an alias')
    .version(
      `${RELEASE} (index contract ${INDEX_CONTRACT_VERSION})`,
      '-V, --version',
      'the release, and the index contract the indexes it builds follow',
    )
    .addOption(
      new Option(
        '--log-format <format>',
        'the log on stderr: json lines (default when stderr is not a terminal) or text (default on a terminal)',
      ).choices(LOG_FORMATS),
    )
    .addHelpText('after', AFTER_OPTIONS_HELP)
    .configureHelp({ showGlobalOptions: true }) // --log-format in each command's help too
    // Commander's own error line is left out: the closing sentence says it (main()), with what to do next.
    .configureOutput({ outputError: () => undefined })
    .exitOverride()
    .hook('preAction', (root, action) => {
      run.context.command = action.name();
      const format = (root.opts() as { logFormat?: LogFormat }).logFormat;
      if (format && format !== run.logFormat) {
        run.logFormat = format;
        run.logger = createIndexerLogger(format);
      }
    });
  addReindexCommand(program, run);
  addSyncCommand(program, run);
  addValidateCommand(program, run);
  addStatusCommand(program, run);
  addRollbackCommand(program, run);
  addSearchesCommand(program);
  return program;
}

/** Runs the CLI and returns its exit code. */
export async function main(argv: string[]): Promise<number> {
  const logFormat = defaultLogFormat();
  const run: CliRun = { logFormat, logger: createIndexerLogger(logFormat), context: {} };
  const program = buildProgram(run);
  // Known before commander parses, so that a bad option of a command is told with that command's --help.
  const commands = new Set(program.commands.map((command) => command.name()));
  run.context.command = argv.slice(2).find((arg) => commands.has(arg));
  try {
    await program.parseAsync(argv);
    return EXIT_CODES.ok;
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return EXIT_CODES.ok; // --help, --version
    return reportFailure(error, run);
  }
}

/**
 * The failure, told last on stderr: records listed first (exit 1), then the log entry (JSON lines only: in text
 * the sentence says the same), then the sentence. The stack appears only at LOG_LEVEL=debug (indexerLog.ts).
 */
function reportFailure(error: unknown, run: CliRun): number {
  const failure = describeFailure(error, run.context);
  if (error instanceof InvalidSourceError) process.stderr.write(`${error.message}\n`);
  const debug = isDebug(run.logger.level);
  if (run.logFormat === 'json' || debug) {
    // The error itself (its stack, and whatever it carries, such as a whole source report) only at debug.
    const type = error instanceof Error ? error.constructor.name : typeof error;
    const detail = debug && error instanceof Error ? { err: error } : { type };
    // The listed invalid records as data too, for whatever reads the JSON lines.
    const records = error instanceof InvalidSourceError ? { invalidRecords: error.listed } : {};
    run.logger.error({ exitCode: failure.exitCode, next: failure.next, ...detail, ...records }, failure.what);
  }
  process.stderr.write(`${failureSentence(error, failure, run.context)}\n`);
  return failure.exitCode;
}

// A reader that stops early (`ppa-indexer reindex --help | head`) closes the pipe: what is left to print has
// nowhere to go, which is neither the command's failure nor worth a stack trace. The work itself goes on (a
// reindex is never cut short by its output), and its exit code stays what the work decides.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

process.exitCode = await main(process.argv);
