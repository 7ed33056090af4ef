// ppa-indexer: reindex | sync | validate | status | rollback. Exit codes (also in --help):
//   0 ok · 1 invalid records or none published (nothing written) · 2 usage (bad option or ES_* variable) · 3 Elasticsearch or
//   other failure (alias unchanged) · 4 another reindex holds the lock · 130 SIGINT · 143 SIGTERM
import type { Client } from '@elastic/elasticsearch';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { checkAliasName } from '../settings/elasticsearch.js';
import { ConfigError } from '../settings/variables.js';
import { aliasTarget } from './aliases.js';
import { createIndexerClient, readIndexerEsSettings } from './esClient.js';
import {
  EXIT_CODES,
  IndexerError,
  InterruptedError,
  InvalidSourceError,
  NothingToRollBackError,
  UsageError,
} from './errors.js';
import { ReindexLock } from './lock.js';
import { DEFAULT_OVERLAP_S, Sync, type SyncRunSummary } from './sync.js';
import { follow } from './syncFollow.js';
import { nonNegativeInteger, positiveInteger } from './optionParsers.js';
import { createProgressReporter } from './progress.js';
import { DEFAULT_RELATION } from './postgresRelation.js';
import { isPostgresUrl, openRecordSource } from './recordSource.js';
import { reindex, type ReindexSummary } from './reindex.js';
import { rollback } from './rollback.js';
import { aliasStatus, describeStatus } from './status.js';
import { describeInvalidRecord, validateItems } from './validateSource.js';

const EXIT_CODE_HELP = `
Exit codes:
  0    success
  1    invalid records in the source (listed by line, slug and field), or no published record; nothing was written
  2    usage error: bad option or ES_* environment variable
  3    Elasticsearch or other failure; the alias was left where it was
  4    another reindex (or, for sync, another sync) of the alias is running (lock held)
  130  interrupted by SIGINT, 143 by SIGTERM; the half-built index was deleted

Environment: DATABASE_URL (the default --source of reindex and sync), ES_URL (comma-separated nodes), ES_API_KEY or ES_USERNAME + ES_PASSWORD,
ES_INDEX (default alias "ppas"), ES_REQUEST_TIMEOUT_MS (default 60000), LOG_LEVEL (default info).`;

const logger = pino(
  { name: 'ppa-indexer', level: process.env.LOG_LEVEL ?? 'info' },
  pino.destination({ fd: 2, sync: true }),
);

/** Aborts on the first SIGINT/SIGTERM (so the run can clean up); a second one exits at once. */
function abortOnSignals(): AbortController {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (controller.signal.aborted)
        process.exit(signal === 'SIGINT' ? EXIT_CODES.interrupted : EXIT_CODES.terminated);
      logger.warn({ signal }, 'stopping: cleaning up (send the signal again to exit at once)');
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

function aliasFrom(option: string | undefined): string {
  return option === undefined ? readIndexerEsSettings().alias : checkAliasName(option, '--alias');
}

async function withClient<T>(action: (client: Client) => Promise<T>): Promise<T> {
  const client = createIndexerClient(readIndexerEsSettings());
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

export function buildProgram(): Command {
  const program = new Command()
    .name('ppa-indexer')
    .description('Builds and manages the PPA search index behind an alias')
    .addHelpText('after', EXIT_CODE_HELP)
    .showHelpAfterError()
    .exitOverride();

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
        batchSize: number;
        replicas?: number;
        greenTimeout: number;
      }) => {
        const alias = aliasFrom(options.alias);
        const source = sourceFrom(options.source);
        if (options.ifMissing) {
          const live = await withClient((client) => aliasTarget(client, alias));
          if (live !== null) {
            process.stderr.write(`alias ${alias} → ${live} exists: nothing to do (--if-missing)\n`);
            return;
          }
        }
        const controller = abortOnSignals();
        const progress = createProgressReporter();
        const client = createIndexerClient(readIndexerEsSettings());
        try {
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
      }) => {
        const alias = aliasFrom(options.alias);
        const url = sourceFrom(options.source, true);
        const controller = abortOnSignals();
        const client = createIndexerClient(readIndexerEsSettings());
        const sync = new Sync({
          client,
          alias,
          url,
          ...(options.relation ? { relation: options.relation } : {}),
          overlapSeconds: options.overlap,
          batchSize: options.batchSize,
          logger,
          signal: controller.signal,
        });
        const printRun = (summary: SyncRunSummary): void => {
          process.stdout.write(`${JSON.stringify({ sync: summary })}\n`);
        };
        let lock: ReindexLock | null = null;
        try {
          lock = await ReindexLock.acquire(client, alias, { label: 'sync' });
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
      const controller = abortOnSignals();
      const source = await openRecordSource(sourceFrom(options.source), {
        ...(options.relation ? { relation: options.relation } : {}),
        signal: controller.signal,
      });
      try {
        const report = await validateItems(source.items({ signal: controller.signal }), source.format).catch(
          (error: unknown) => {
            if (controller.signal.aborted) throw new InterruptedError(String(controller.signal.reason));
            throw error;
          },
        );
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
      const alias = aliasFrom(options.alias);
      const status = await withClient((client) => aliasStatus(client, alias));
      process.stdout.write(`${options.json ? JSON.stringify(status) : describeStatus(status)}\n`);
    });

  program
    .command('rollback')
    .description('point the alias back at the index built before the live one')
    .option('--alias <name>', 'alias (default: ES_INDEX or "ppas")')
    .addHelpText('after', EXIT_CODE_HELP)
    .action(async (options: { alias?: string }) => {
      const alias = aliasFrom(options.alias);
      const result = await withClient((client) => rollback(client, alias));
      process.stdout.write(`${JSON.stringify({ rollback: result })}\n`);
      process.stderr.write(`alias ${result.alias}: ${result.from} → ${result.to}\n`);
    });

  return program;
}

/** Runs the CLI and returns its exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return EXIT_CODES.ok;
  } catch (error) {
    return exitCodeOf(error);
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and version are "errors" to exitOverride; commander has already printed the message.
    return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  const missingFile = (error as { code?: string } | null)?.code === 'ENOENT';
  const code =
    error instanceof IndexerError
      ? error.exitCode
      : error instanceof ConfigError || missingFile
        ? EXIT_CODES.usage
        : EXIT_CODES.failure;
  // An expected failure is one line for the operator; anything else is logged with its stack.
  if (error instanceof InterruptedError) logger.warn(message);
  else if (code === EXIT_CODES.invalidRecords) process.stderr.write(`${message}\n`);
  else if (code !== EXIT_CODES.failure || error instanceof NothingToRollBackError) {
    process.stderr.write(`ppa-indexer: ${message}\n`);
  } else logger.error({ err: error }, message);
  return code;
}

process.exitCode = await main(process.argv);
