// The indexer's Elasticsearch client: the shared ES_* settings (settings/elasticsearch.ts) with a batch job's
// patience. Bulk requests and refreshes are slower than the API's searches, so the timeout default is longer,
// and a failed request is retried on another node.
import type { Client } from '@elastic/elasticsearch';
import type { ES_VARIABLES_SPEC } from '../../settings/elasticsearch.js';
import { readEsSettings, type EsSettings } from '../../settings/elasticsearch.js';
import { createEsClient } from '../../settings/esClient.js';
import { elasticsearchFailure } from './elasticsearchErrors.js';

/** The ES_* defaults the indexer reads instead of the shared ones (--help shows them: ../commands/environment.ts). */
export const INDEXER_ES_DEFAULTS: Partial<Record<keyof typeof ES_VARIABLES_SPEC, string>> = {
  ES_REQUEST_TIMEOUT_MS: '60000',
};

/** The ES_* variables with the indexer's defaults; throws a ConfigError (the CLI's usage exit) naming each bad one. */
export function readIndexerEsSettings(env: NodeJS.ProcessEnv = process.env): EsSettings {
  return readEsSettings(env, INDEXER_ES_DEFAULTS);
}

export function createIndexerClient(settings: EsSettings): Client {
  return createEsClient(settings, { maxRetries: 3, nodeHttp: true });
}

/** The longest the start-up check waits for a node. */
export const CHECK_TIMEOUT_MS = 10_000;

/**
 * Asks the cluster's health once, each node of ES_URL tried once, within 10 s: a wrong ES_URL or missing credentials
 * fail the run at its start, naming the URL, instead of after a long source was validated and retries ran out.
 * (`GET _cluster/health` needs the `monitor` privilege the indexer has anyway; `GET /` is missing from some builds.)
 */
export async function checkElasticsearch(client: Client, settings: EsSettings): Promise<void> {
  try {
    await client.cluster.health(
      { filter_path: 'status' },
      {
        requestTimeout: Math.min(settings.requestTimeoutMs, CHECK_TIMEOUT_MS),
        maxRetries: settings.nodes.length - 1,
      },
    );
  } catch (error) {
    throw elasticsearchFailure(error, settings.nodes) ?? error;
  }
}
