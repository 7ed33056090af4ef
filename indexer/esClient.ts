// The indexer's Elasticsearch client: the shared ES_* settings (settings/elasticsearch.ts) with a batch job's
// patience. Bulk requests and refreshes are slower than the API's searches, so the timeout default is longer,
// and a failed request is retried on another node.
import type { Client } from '@elastic/elasticsearch';
import { readEsSettings, type EsSettings } from '../settings/elasticsearch.js';
import { createEsClient } from '../settings/esClient.js';

const INDEXER_DEFAULTS = { ES_REQUEST_TIMEOUT_MS: '60000' };

/** The ES_* variables with the indexer's defaults; throws a ConfigError (the CLI's usage exit) naming each bad one. */
export function readIndexerEsSettings(env: NodeJS.ProcessEnv = process.env): EsSettings {
  return readEsSettings(env, INDEXER_DEFAULTS);
}

export function createIndexerClient(settings: EsSettings): Client {
  return createEsClient(settings, { maxRetries: 3, nodeHttp: true });
}
