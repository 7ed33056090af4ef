// ppa-indexer sync: apply what changed in PostgreSQL to the live index in place, once or, with --follow, until
// SIGTERM (indexer/sync/), under the alias's sync lock.
import type { Command } from 'commander';
import { Option } from 'commander';
import { ChangeLog } from '../changes/changeLog.js';
import type { RemovalLimit } from '../changes/removalGuard.js';
import { AliasLock } from '../elasticsearch/lock.js';
import { nonNegativeNumber, positiveInteger, positiveNumber } from '../optionParsers.js';
import { DEFAULT_RELATION } from '../sources/postgresRelation.js';
import { Sync } from '../sync/sync.js';
import { follow } from '../sync/syncFollow.js';
import { DEFAULT_OVERLAP_S, type SyncRunSummary } from '../sync/syncRun.js';
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

interface SyncCommandOptions {
  source?: string;
  relation?: string;
  alias?: string;
  follow: boolean;
  interval: number;
  reconcileEvery?: number;
  overlap: number;
  batchSize: number;
  maxRemoved: RemovalLimit;
}

export function addSyncCommand(program: Command, run: CliRun): void {
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
    .addHelpText('after', AFTER_OPTIONS_HELP)
    .action((options: SyncCommandOptions) => syncAction(options, run));
}

async function syncAction(options: SyncCommandOptions, run: CliRun): Promise<void> {
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
  let lock: AliasLock | null = null;
  try {
    lock = await AliasLock.acquire(client, alias, { guards: 'syncWrites' });
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
}
