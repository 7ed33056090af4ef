// The Elasticsearch client both programs use, from the ES_* settings. What differs between them is how hard a
// request tries: the API answers within its deadline, the indexer's batch job waits longer and retries.
import { Client, ClusterConnectionPool, HttpConnection, type ClientOptions } from '@elastic/elasticsearch';
import type { EsSettings } from './elasticsearch.js';

export interface EsClientOptions {
  /** Retries of a failed request on another node (the client's own retry). */
  maxRetries: number;
  /**
   * Node's own HTTP module instead of the client's default (undici): for a long batch job that sends a request
   * or two at a time it uses much less memory (docs/operations.md, "Indexer memory").
   */
  nodeHttp?: boolean;
}

export function createEsClient(settings: EsSettings, options: EsClientOptions): Client {
  const clientOptions: ClientOptions = {
    nodes: settings.nodes,
    requestTimeout: settings.requestTimeoutMs,
    maxRetries: options.maxRetries,
    // Round robin over the nodes of ES_URL that answer: a node that refuses or resets a connection is left out
    // until a ping (HEAD /, every 60 s, then less often) finds it back; no sniffing (docs/operations.md).
    ConnectionPool: ClusterConnectionPool,
    ...(settings.auth ? { auth: settings.auth } : {}),
    ...(options.nodeHttp ? { Connection: HttpConnection } : {}),
  };
  return new Client(clientOptions);
}
