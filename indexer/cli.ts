// ppa-indexer: reindex | sync | validate | status | rollback. Exit codes: EXIT_CODE_TABLE (indexer/exitCodes.ts), also
// in --help and docs/operations.md. Every failure ends with one sentence on stderr (indexer/failure.ts).
import type { Client } from '@elastic/elasticsearch';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Logger } from 'pino';
import { checkAliasName } from '../settings/elasticsearch.js';
import { aliasTarget } from './elasticsearch/aliases.js';
import { checkElasticsearch, createIndexerClient, readIndexerEsSettings } from './elasticsearch/esClient.js';
import { EXIT_CODE_TABLE, EXIT_CODES } from './exitCodes.js';
import { InterruptedError, InvalidSourceError, UsageError } from './errors.js';
import { describeFailure, failureSentence, type RunContext } from './failure.js';
import { createIndexerLogger, defaultLogFormat, isDebug, LOG_FORMATS, type LogFormat } from './indexerLog.js';
import { ReindexLock } from './elasticsearch/lock.js';
import { Sync } from './sync/sync.js';
import { DEFAULT_OVERLAP_S, type SyncRunSummary } from './sync/syncRun.js';
import { follow } from './sync/syncFollow.js';
import { nonNegativeInteger, positiveInteger } from './optionParsers.js';
import { createProgressReporter } from './progress.js';
import { DEFAULT_RELATION } from './sources/postgresRelation.js';
import { isPostgresUrl, openRecordSource } from './sources/openSource.js';
import { reindex, type ReindexSummary } from './reindex/reindex.js';
import { rollback } from './reindex/rollback.js';
import { aliasStatus, describeStatus } from './reindex/status.js';
import { describePlan, planReindex } from './reindex/plan.js';
import { ChangeLog, type ChangeLogOptions } from './changes/changeLog.js';
import { DEFAULT_MAX_REMOVED, parseRemovalLimit, type RemovalLimit } from './changes/removalGuard.js';
import { DEFAULT_RETENTION_DAYS } from '../indexContract/changeLog.js';
import { describeInvalidRecord } from './sources/validateSource.js';

const EXIT_CODE_HELP = `
Exit codes:
${EXIT_CODE_TABLE.map(({ code, meaning }) => `  ${code.padEnd(9)}${meaning}`).join('\n')}

Every failure ends with one sentence on stderr: what failed, what it means for the live alias, what to do next.

Environment: DATABASE_URL (the default --source of reindex and sync), ES_URL (comma-separated nodes), ES_API_KEY or ES_USERNAME + ES_PASSWORD,
ES_INDEX (default alias "ppas"), ES_REQUEST_TIMEOUT_MS (default 60000), LOG_LEVEL (default info; debug adds stack traces),
CHANGES_RETENTION_DAYS (default ${DEFAULT_RETENTION_DAYS}: how long the change log keeps events).`;

/** The change log's settings from the environment (CHANGES_RETENTION_DAYS: days, decimals allowed, > 0). */
function changeLogOptions(logger: Logger): ChangeLogOptions {
  const raw = process.env.CHANGES_RETENTION_DAYS?.trim();
  if (raw === undefined || raw === '') return { logger };
  const days = Number(raw);
  if (!/^\d+(?:\.\d+)?$/.test(raw) || !(days > 0) || days > 36_500)
    throw new UsageError(
      `CHANGES_RETENTION_DAYS must be a number of days above 0, got ${JSON.stringify(raw)}`,
    );
  return { logger, retentionDays: days };
}

const maxRemovedOption = (what: string): Option =>
  new Option(
    '--max-removed <share|count>',
    `the most live PPAs ${what} may remove, as a share (5%) or a count (250); past it, nothing is applied (exit 5)`,
  )
    .argParser(parseRemovalLimit)
    .default(parseRemovalLimit(DEFAULT_MAX_REMOVED), DEFAULT_MAX_REMOVED);

/** One run of the CLI: its log (replaced once --log-format is read) and what the closing sentence needs. */
interface CliRun {
  logger: Logger;
  logFormat: LogFormat;
  context: RunContext;
}

/** Aborts on the first SIGINT/SIGTERM (so the run can clean up); a second one exits at once. */
function abortOnSignals(run: CliRun): AbortController {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (controller.signal.aborted)
        process.exit(signal === 'SIGINT' ? EXIT_CODES.interrupted : EXIT_CODES.terminated);
      run.logger.warn({ signal }, 'stopping: cleaning up (send the signal again to exit at once)');
      controller.abort(signal);
    });
  }
  return controller;
}

/** --source, else DATABASE_URL; sync accepts only a postgres:// URL. */
function sourceFrom(option: string | undefined, postgresOnly = false): string {
  const source = option ?? (process.env.DATABASE_URL?.trim() || undefined);
  if (source === undefined) throw new UsageError('--source is required (or set DATABASE_URL)');
  if (postgresOnly && !isPostgresUrl(source))
    throw new UsageError(`--source must be a postgres:// URL for sync, got ${JSON.stringify(source)}`);
  return source;
}

function nonNegativeNumber(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('expected a number >= 0');
  return Number(value);
}

function positiveNumber(value: string): number {
  const number = nonNegativeNumber(value);
  if (number <= 0) throw new InvalidArgumentError('expected a number > 0');
  return number;
}

function aliasFrom(option: string | undefined, run: CliRun): string {
  const alias = option === undefined ? readIndexerEsSettings().alias : checkAliasName(option, '--alias');
  run.context.alias = alias;
  return alias;
}

/** A client of ES_URL whose cluster has answered (checkElasticsearch): a wrong URL fails here, in seconds. */
async function connectedClient(run: CliRun): Promise<Client> {
  const settings = readIndexerEsSettings();
  run.context.esNodes = settings.nodes;
  const client = createIndexerClient(settings);
  try {
    await checkElasticsearch(client, settings);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

async function withClient<T>(run: CliRun, action: (client: Client) => Promise<T>): Promise<T> {
  const client = await connectedClient(run);
  try {
    return await action(client);
  } finally {
    await client.close();
  }
}

function printSummary(summary: ReindexSummary): void {
  const { invalidRecords: _listed, ...figures } = summary;
  process.stdout.write(`${JSON.stringify({ summary: figures })}\n`);
  process.stderr.write(
    `${summary.dryRun ? 'dry run: would index' : 'indexed'} ${summary.indexed} of ${summary.read} records read ` +
      `(${summary.invalid} invalid, ${summary.unpublished} unpublished) in ${summary.seconds}s, ` +
      `${summary.docsPerSecond} docs/s, peak RSS ${summary.maxRssMb} MB` +
      (summary.index ? `; alias ${summary.alias} → ${summary.index}` : '') +
      (summary.deletedIndices.length ? `; deleted ${summary.deletedIndices.join(', ')}` : '') +
      '\n',
  );
}

export function buildProgram(run: CliRun): Command {
  const program = new Command()
    .name('ppa-indexer')
    .description('Builds and manages the PPA search index behind an alias')
    .addOption(
      new Option(
        '--log-format <format>',
        'the log on stderr: json lines (default when stderr is not a terminal) or text (default on a terminal)',
      ).choices(LOG_FORMATS),
    )
    .addHelpText('after', EXIT_CODE_HELP)
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

  program
    .command('reindex')
    .description('validate the source, build a new index, check it, swap the alias, prune old indices')
    .option(
      '--source <file|url>',
      'NDJSON or JSON array file, - for stdin, or postgres://USER[:PASS]@HOST[:PORT]/DB (default: DATABASE_URL)',
    )
    .option(
      '--relation <name>',
      `PostgreSQL relation with slug, updated_at, record (default ${DEFAULT_RELATION})`,
    )
    .option('--alias <name>', 'alias to swap (default: ES_INDEX or "ppas")')
    .option('--keep <n>', 'indices to keep, the live one included', positiveInteger, 2)
    .option('--skip-invalid', 'index the valid records and list the invalid ones instead of stopping', false)
    .option('--dry-run', 'validate and build documents only; write nothing (no Elasticsearch needed)', false)
    .option('--if-missing', 'do nothing when the alias exists already (first start of a deployment)', false)
    .option(
      '--plan',
      'validate the source and print what a reindex would add, update and remove against the live index; build nothing',
      false,
    )
    .addOption(maxRemovedOption('a reindex'))
    .addOption(
      new Option('--batch-size <n>', 'documents per bulk request').argParser(positiveInteger).default(1000),
    )
    .addOption(
      new Option(
        '--replicas <n>',
        'replicas of the new index (default: 1 on two or more data nodes, else 0)',
      ).argParser(nonNegativeInteger),
    )
    .addOption(
      new Option('--green-timeout <s>', 'seconds the new index may take to turn green before the run fails')
        .argParser(positiveInteger)
        .default(300),
    )
    .addHelpText('after', EXIT_CODE_HELP)
    .action(
      async (options: {
        source?: string;
        relation?: string;
        alias?: string;
        keep: number;
        skipInvalid: boolean;
        dryRun: boolean;
        ifMissing: boolean;
        plan: boolean;
        maxRemoved: RemovalLimit;
        batchSize: number;
        replicas?: number;
        greenTimeout: number;
      }) => {
        const alias = aliasFrom(options.alias, run);
        const source = sourceFrom(options.source);
        const { logger } = run;
        if (options.plan && options.dryRun) throw new UsageError('--plan and --dry-run do not go together');
        const changeLog = changeLogOptions(logger);
        // Elasticsearch is asked first, so that a wrong ES_URL fails before a long source is read.
        const client = options.dryRun
          ? createIndexerClient(readIndexerEsSettings())
          : await connectedClient(run);
        const progress = createProgressReporter();
        try {
          if (options.ifMissing) {
            const live = await aliasTarget(client, alias);
            if (live !== null) {
              process.stderr.write(`alias ${alias} → ${live} exists: nothing to do (--if-missing)\n`);
              return;
            }
          }
          const controller = abortOnSignals(run);
          if (options.plan) {
            const plan = await planReindex({
              client,
              alias,
              source,
              ...(options.relation ? { relation: options.relation } : {}),
              skipInvalid: options.skipInvalid,
              maxRemoved: options.maxRemoved,
              signal: controller.signal,
              logger,
            });
            process.stderr.write(`${describePlan(plan)}\n`);
            process.stdout.write(`${JSON.stringify({ plan })}\n`);
            return;
          }
          const summary = await reindex({
            client,
            alias,
            source,
            ...(options.relation ? { relation: options.relation } : {}),
            keep: options.keep,
            skipInvalid: options.skipInvalid,
            dryRun: options.dryRun,
            batchSize: options.batchSize,
            ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
            greenTimeoutMs: options.greenTimeout * 1000,
            maxRemoved: options.maxRemoved,
            changeLog,
            signal: controller.signal,
            logger,
            onProgress: progress.onProgress,
          });
          progress.stop();
          for (const record of summary.invalidRecords) {
            logger.warn(
              { line: record.line, slug: record.slug, problems: record.problems },
              `skipped: ${describeInvalidRecord(record, summary.format)}`,
            );
          }
          printSummary(summary);
        } finally {
          progress.stop();
          await client.close();
        }
      },
    );

  program
    .command('sync')
    .description(
      'apply what changed in PostgreSQL since the live index was built or last synced, in place (no swap)',
    )
    .option('--source <url>', 'postgres://USER[:PASS]@HOST[:PORT]/DB (default: DATABASE_URL)')
    .option('--relation <name>', `relation with slug, updated_at, record (default ${DEFAULT_RELATION})`)
    .option('--alias <name>', 'alias whose live index is kept fresh (default: ES_INDEX or "ppas")')
    .option('--follow', 'keep going: a run every --interval seconds or on NOTIFY, until SIGTERM', false)
    .addOption(
      new Option('--interval <seconds>', 'seconds between runs under --follow')
        .argParser(positiveNumber)
        .default(2),
    )
    .addOption(
      new Option(
        '--reconcile-every <n>',
        'compare slugs (deleting documents whose row is gone) every n runs (default: every run; under --follow, once a minute)',
      ).argParser(positiveInteger),
    )
    .addOption(
      new Option('--overlap <seconds>', 're-read changes this far before the high-water mark (late commits)')
        .argParser(nonNegativeNumber)
        .default(DEFAULT_OVERLAP_S),
    )
    .addOption(
      new Option('--batch-size <n>', 'changed rows per fetch and per bulk request')
        .argParser(positiveInteger)
        .default(500),
    )
    .addOption(maxRemovedOption('one sync run'))
    .addHelpText('after', EXIT_CODE_HELP)
    .action(
      async (options: {
        source?: string;
        relation?: string;
        alias?: string;
        follow: boolean;
        interval: number;
        reconcileEvery?: number;
        overlap: number;
        batchSize: number;
        maxRemoved: RemovalLimit;
      }) => {
        const alias = aliasFrom(options.alias, run);
        const url = sourceFrom(options.source, true);
        const { logger } = run;
        const changeLogSettings = changeLogOptions(logger);
        const client = await connectedClient(run);
        const controller = abortOnSignals(run);
        const sync = new Sync({
          client,
          alias,
          url,
          ...(options.relation ? { relation: options.relation } : {}),
          overlapSeconds: options.overlap,
          batchSize: options.batchSize,
          logger,
          signal: controller.signal,
          changeLog: new ChangeLog(client, alias, changeLogSettings),
          maxRemoved: options.maxRemoved,
        });
        const printRun = (summary: SyncRunSummary): void => {
          process.stdout.write(`${JSON.stringify({ sync: summary })}\n`);
        };
        let lock: ReindexLock | null = null;
        try {
          lock = await ReindexLock.acquire(client, alias, { label: 'sync' });
          run.context.applying = true;
          if (options.follow) {
            logger.info(
              { alias, interval: options.interval, overlap: options.overlap },
              'following changes (LISTEN/NOTIFY, else polling)',
            );
            await follow({
              sync,
              url,
              lock,
              intervalSeconds: options.interval,
              ...(options.reconcileEvery ? { reconcileEvery: options.reconcileEvery } : {}),
              signal: controller.signal,
              logger,
              onRun: printRun,
            });
            logger.info('stopped');
          } else {
            const every = options.reconcileEvery ?? 1;
            printRun(await sync.run((runs) => runs % every === 0));
          }
        } finally {
          await lock
            ?.release()
            .catch((error: unknown) => logger.warn({ err: error }, 'could not release the lock'));
          await sync.close();
          await client.close();
        }
      },
    );

  program
    .command('validate')
    .description('check every record of the source against the record schema (no Elasticsearch needed)')
    .option(
      '--source <file|url>',
      'NDJSON or JSON array file, - for stdin, or postgres://… (default: DATABASE_URL)',
    )
    .option('--relation <name>', `PostgreSQL relation (default ${DEFAULT_RELATION})`)
    .addHelpText('after', EXIT_CODE_HELP)
    .action(async (options: { source?: string; relation?: string }) => {
      const controller = abortOnSignals(run);
      const source = await openRecordSource(sourceFrom(options.source), {
        ...(options.relation ? { relation: options.relation } : {}),
        signal: controller.signal,
      });
      try {
        const report = await source.validate({ signal: controller.signal }).catch((error: unknown) => {
          if (controller.signal.aborted) throw new InterruptedError(String(controller.signal.reason));
          throw error;
        });
        const { invalidRecords, invalidLines: _lines, ...figures } = report;
        process.stdout.write(`${JSON.stringify({ validation: figures })}\n`);
        if (report.invalid > 0) throw new InvalidSourceError({ ...report, invalidRecords });
        process.stderr.write(
          `${report.read} records, all valid (${report.published} published, ${report.unpublished} unpublished)\n`,
        );
      } finally {
        await source.close();
      }
    });

  program
    .command('status')
    .description('show the alias, its index, document counts, age, kept indices and the lock')
    .option('--alias <name>', 'alias (default: ES_INDEX or "ppas")')
    .option('--json', 'print JSON instead of text', false)
    .addHelpText('after', EXIT_CODE_HELP)
    .action(async (options: { alias?: string; json: boolean }) => {
      const alias = aliasFrom(options.alias, run);
      const status = await withClient(run, (client) => aliasStatus(client, alias));
      process.stdout.write(`${options.json ? JSON.stringify(status) : describeStatus(status)}\n`);
    });

  program
    .command('rollback')
    .description('point the alias back at the index built before the live one')
    .option('--alias <name>', 'alias (default: ES_INDEX or "ppas")')
    .addHelpText('after', EXIT_CODE_HELP)
    .action(async (options: { alias?: string }) => {
      const alias = aliasFrom(options.alias, run);
      const settings = changeLogOptions(run.logger);
      const result = await withClient(run, (client) => rollback(client, alias, settings));
      process.stdout.write(`${JSON.stringify({ rollback: result })}\n`);
      process.stderr.write(`alias ${result.alias}: ${result.from} → ${result.to}\n`);
    });

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
