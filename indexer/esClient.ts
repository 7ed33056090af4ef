// The Elasticsearch client from ES_* variables (api.md's configuration table), checked once at start-up.
import { Client, HttpConnection, type ClientOptions } from '@elastic/elasticsearch';
import { UsageError } from './errors.js';

export interface EsConfig {
  nodes: string[];
  auth?: ClientOptions['auth'];
  requestTimeoutMs: number;
  alias: string;
}

// Bulk requests and refreshes are slower than the API's searches, so the indexer waits longer by default.
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const ALIAS_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,99}$/;

export function checkAliasName(alias: string, source = '--alias'): string {
  if (!ALIAS_PATTERN.test(alias)) {
    throw new UsageError(
      `${source} must be a lowercase index alias name (a-z, 0-9, _ . -), got ${JSON.stringify(alias)}`,
    );
  }
  return alias;
}

export function readEsConfig(environment: NodeJS.ProcessEnv = process.env): EsConfig {
  // As in the API (src/config.ts): an empty or blank value counts as unset (compose files often write `VAR=`).
  const env = withoutBlanks(environment);
  const nodes = (env.ES_URL ?? 'http://127.0.0.1:9200')
    .split(',')
    .map((node) => node.trim())
    .filter(Boolean);
  for (const node of nodes) {
    if (!URL.canParse(node) || !/^https?:$/.test(new URL(node).protocol)) {
      throw new UsageError(`ES_URL must be comma-separated http(s) URLs, got ${JSON.stringify(node)}`);
    }
  }
  if (nodes.length === 0) throw new UsageError('ES_URL is empty');

  let auth: ClientOptions['auth'] | undefined;
  if (env.ES_API_KEY) {
    if (env.ES_USERNAME || env.ES_PASSWORD)
      throw new UsageError('set ES_API_KEY or ES_USERNAME+ES_PASSWORD, not both');
    auth = { apiKey: env.ES_API_KEY };
  } else if (env.ES_USERNAME || env.ES_PASSWORD) {
    if (!env.ES_USERNAME || !env.ES_PASSWORD) throw new UsageError('ES_USERNAME and ES_PASSWORD go together');
    auth = { username: env.ES_USERNAME, password: env.ES_PASSWORD };
  }

  const timeoutText = env.ES_REQUEST_TIMEOUT_MS;
  const requestTimeoutMs = timeoutText === undefined ? DEFAULT_REQUEST_TIMEOUT_MS : Number(timeoutText);
  if (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs <= 0) {
    throw new UsageError(
      `ES_REQUEST_TIMEOUT_MS must be a positive integer (milliseconds), got ${JSON.stringify(timeoutText)}`,
    );
  }

  const alias = checkAliasName(env.ES_INDEX ?? 'ppas', 'ES_INDEX');
  return { nodes, ...(auth ? { auth } : {}), requestTimeoutMs, alias };
}

const ES_VARIABLES = [
  'ES_URL',
  'ES_API_KEY',
  'ES_USERNAME',
  'ES_PASSWORD',
  'ES_INDEX',
  'ES_REQUEST_TIMEOUT_MS',
];

function withoutBlanks(env: NodeJS.ProcessEnv): Partial<Record<string, string>> {
  const values: Partial<Record<string, string>> = {};
  for (const name of ES_VARIABLES) {
    const value = env[name]?.trim();
    if (value) values[name] = value;
  }
  return values;
}

export function createEsClient(config: EsConfig): Client {
  return new Client({
    nodes: config.nodes,
    // Node's own HTTP client rather than the default undici one: undici parses responses with llhttp compiled
    // to WebAssembly, and V8's optimising compile of that module, about a second after the first request,
    // briefly takes some 28 MB, over a quarter of what this whole process otherwise needs at its peak. A batch job
    // that sends one bulk request at a time or two gains nothing from undici that would pay for that.
    Connection: HttpConnection,
    ...(config.auth ? { auth: config.auth } : {}),
    requestTimeout: config.requestTimeoutMs,
    maxRetries: 3,
  });
}
