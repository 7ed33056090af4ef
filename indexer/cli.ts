// ppa-indexer: reindex | validate | status | rollback. Exit codes (also in --help):
//   0 ok · 1 invalid records or none published (nothing written) · 2 usage (bad option or ES_* variable) · 3 Elasticsearch or
//   other failure (alias unchanged) · 4 another reindex holds the lock · 130 SIGINT · 143 SIGTERM
import type { Client } from '@elastic/elasticsearch';
import { Command, CommanderError, Option } from 'commander';
import { stat } from 'node:fs/promises';
import { pino } from 'pino';
import { checkAliasName } from '../settings/elasticsearch.js';
import { ConfigError } from '../settings/variables.js';
import { createIndexerClient, readIndexerEsSettings } from './esClient.js';
import {
  EXIT_CODES,
  IndexerError,
  InterruptedError,
  InvalidSourceError,
  NothingToRollBackError,
} from './errors.js';
import { nonNegativeInteger, positiveInteger } from './optionParsers.js';
import { createProgressReporter } from './progress.js';
import { reindex, type ReindexSummary } from './reindex.js';
import { rollback } from './rollback.js';
import { detectFormat } from './source.js';
import { spoolToTempFile } from './spool.js';
import { aliasStatus, describeStatus } from './status.js';
import { describeInvalidRecord, validateSource } from './validateSource.js';

const EXIT_CODE_HELP = `
Exit codes:
  0    success
  1    invalid records in the source (listed by line, slug and field), or no published record; nothing was written
  2    usage error: bad option or ES_* environment variable
  3    Elasticsearch or other failure; the alias was left where it was
  4    another reindex of the alias is running (lock held)
  130  interrupted by SIGINT, 143 by SIGTERM; the half-built index was deleted

Environment: ES_URL (comma-separated nodes), ES_API_KEY or ES_USERNAME + ES_PASSWORD,
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
    .requiredOption('--source <file>', 'NDJSON or JSON array file, or - for stdin')
    .option('--alias <name>', 'alias to swap (default: ES_INDEX or "ppas")')
    .option('--keep <n>', 'indices to keep, the live one included', positiveInteger, 2)
    .option('--skip-invalid', 'index the valid records and list the invalid ones instead of stopping', false)
    .option('--dry-run', 'validate and build documents only; write nothing (no Elasticsearch needed)', false)
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
        source: string;
        alias?: string;
        keep: number;
        skipInvalid: boolean;
        dryRun: boolean;
        batchSize: number;
        replicas?: number;
        greenTimeout: number;
      }) => {
        const alias = aliasFrom(options.alias);
        const controller = abortOnSignals();
        const progress = createProgressReporter();
        const client = createIndexerClient(readIndexerEsSettings());
        try {
          const summary = await reindex({
            client,
            alias,
            source: options.source,
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
    .command('validate')
    .description('check every record of the source against the record schema (no Elasticsearch needed)')
    .requiredOption('--source <file>', 'NDJSON or JSON array file, or - for stdin')
    .addHelpText('after', EXIT_CODE_HELP)
    .action(async (options: { source: string }) => {
      const controller = abortOnSignals();
      const spooled =
        options.source === '-' ? await spoolToTempFile(process.stdin, controller.signal) : undefined;
      const path = spooled?.path ?? options.source;
      try {
        await stat(path);
        const format = await detectFormat(path);
        const report = await validateSource(path, format, { signal: controller.signal }).catch(
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
        await spooled?.remove();
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
