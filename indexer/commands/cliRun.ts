// One run of the CLI, and the steps every command takes with it: the alias and the source it names, a client of a
// cluster that has answered, signals turned into an abort, the change log's settings.
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from 'pino';
import { readChangeLogSettings } from '../../settings/changeLog.js';
import { checkAliasName } from '../../settings/elasticsearch.js';
import type { ChangeLogOptions } from '../changes/changeLog.js';
import { checkElasticsearch, createIndexerClient, readIndexerEsSettings } from '../elasticsearch/esClient.js';
import { UsageError } from '../errors.js';
import { EXIT_CODES } from '../exitCodes.js';
import type { LogFormat } from '../indexerLog.js';
import { isPostgresUrl } from '../sources/openSource.js';
import type { RunContext } from './failure.js';

/** One run of the CLI: its log (replaced once --log-format is read) and what the closing sentence needs. */
export interface CliRun {
  logger: Logger;
  logFormat: LogFormat;
  context: RunContext;
}

/** Aborts on the first SIGINT/SIGTERM (so the run can clean up); a second one exits at once. */
export function abortOnSignals(run: CliRun): AbortController {
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
export function sourceFrom(option: string | undefined, postgresOnly = false): string {
  const source = option ?? (process.env.DATABASE_URL?.trim() || undefined);
  if (source === undefined) throw new UsageError('--source is required (or set DATABASE_URL)');
  if (postgresOnly && !isPostgresUrl(source))
    throw new UsageError(`--source must be a postgres:// URL for sync, got ${JSON.stringify(source)}`);
  return source;
}

/** --alias, else ES_INDEX; told to the closing sentence. */
export function aliasFrom(option: string | undefined, run: CliRun): string {
  const alias = option === undefined ? readIndexerEsSettings().alias : checkAliasName(option, '--alias');
  run.context.alias = alias;
  return alias;
}

/** A client of ES_URL whose cluster has answered (checkElasticsearch): a wrong URL fails here, in seconds. */
export async function connectedClient(run: CliRun): Promise<Client> {
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

export async function withClient<T>(run: CliRun, action: (client: Client) => Promise<T>): Promise<T> {
  const client = await connectedClient(run);
  try {
    return await action(client);
  } finally {
    await client.close();
  }
}

/** The change log's options: CHANGES_RETENTION_DAYS (settings/changeLog.ts) and the run's log. */
export function changeLogOptions(logger: Logger): ChangeLogOptions {
  return { logger, ...readChangeLogSettings(process.env) };
}
