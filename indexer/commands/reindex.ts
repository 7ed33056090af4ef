// ppa-indexer reindex: validate the source, build a new index, check it, swap the alias, prune old indices
// (indexer/reindex/reindex.ts); with --plan, what a reindex would change (indexer/reindex/plan.ts).
import type { Command } from 'commander';
import { Option } from 'commander';
import type { RemovalLimit } from '../changes/removalGuard.js';
import { aliasTarget } from '../elasticsearch/aliases.js';
import { createIndexerClient, readIndexerEsSettings } from '../elasticsearch/esClient.js';
import { UsageError } from '../errors.js';
import { nonNegativeInteger, positiveInteger } from '../optionParsers.js';
import { describePlan, planReindex } from '../reindex/plan.js';
import { reindex, type ReindexSummary } from '../reindex/reindex.js';
import { DEFAULT_RELATION } from '../sources/postgresRelation.js';
import { describeInvalidRecord } from '../sources/validateSource.js';
import {
  abortOnSignals,
  aliasFrom,
  changeLogOptions,
  connectedClient,
  sourceFrom,
  type CliRun,
} from './cliRun.js';
import { AFTER_OPTIONS_HELP } from './help.js';
import { maxRemovedOption } from './options.js';
import { createProgressReporter } from './progress.js';

interface ReindexCommandOptions {
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
}

export function addReindexCommand(program: Command, run: CliRun): void {
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
    .addHelpText('after', AFTER_OPTIONS_HELP)
    .action((options: ReindexCommandOptions) => reindexAction(options, run));
}

async function reindexAction(options: ReindexCommandOptions, run: CliRun): Promise<void> {
  const alias = aliasFrom(options.alias, run);
  const source = sourceFrom(options.source);
  const { logger } = run;
  if (options.plan && options.dryRun) throw new UsageError('--plan and --dry-run do not go together');
  const changeLog = changeLogOptions(logger);
  // Elasticsearch is asked first, so that a wrong ES_URL fails before a long source is read.
  const client = options.dryRun ? createIndexerClient(readIndexerEsSettings()) : await connectedClient(run);
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
