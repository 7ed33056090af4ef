// The Elasticsearch client both programs use, from the ES_* settings. What differs between them is how hard a
// request tries: the API answers within its deadline, the indexer's batch job waits longer and retries.
import {
  Client,
  ClusterConnectionPool,
  HttpConnection,
  SniffingTransport,
  type ClientOptions,
} from '@elastic/elasticsearch';
import type { EsSettings } from './elasticsearch.js';

export interface EsClientOptions {
  /** Retries of a failed request on another node (the client's own retry). */
  maxRetries: number;
  /**
   * Node's own HTTP module instead of the client's default (undici): for a long batch job that sends a request
   * or two at a time it uses much less memory (docs/operations.md, "Indexer memory").
   */
  nodeHttp?: boolean;
  /**
   * Whether the client makes an OpenTelemetry span for each request (search, msearch, get…). The client does by
   * default, through whatever tracer provider is registered (none: no-op spans); false skips that work entirely,
   * as the API does with tracing off. Absent: the client's default (OTEL_ELASTICSEARCH_ENABLED).
   */
  traced?: boolean;
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
    ...(options.traced === false ? { Transport: UntracedTransport } : {}),
  };
  return new Client(clientOptions);
}

/** The client's own transport without its OpenTelemetry spans: the 8.x client has no option of its own for that. */
class UntracedTransport extends SniffingTransport {
  constructor(options: ConstructorParameters<typeof SniffingTransport>[0]) {
    super({ ...options, openTelemetry: { enabled: false } });
  }
}
