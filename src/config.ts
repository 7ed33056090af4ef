// The API's configuration: every environment variable it reads, validated once at start-up with ajv.
// `loadConfig` is pure (it reads only the object it is given), so tests can check every variable.
import {
  ES_CREDENTIAL_RULES,
  ES_VARIABLES_SPEC,
  esSettingsFrom,
  type EsSettings,
} from '../settings/elasticsearch.js';
import { redisUrlProblem } from './rateLimit/redisUrl.js';
import { ConfigError, createVariablesReader, type VariableSpec } from '../settings/variables.js';

export { ConfigError, type VariableSpec };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /** Elasticsearch nodes, credentials, the alias the API reads, the per-request timeout (the ES_* variables). */
  es: EsSettings;
  /** Unset: in-memory rate limits (one instance). */
  redisUrl?: string;
  rateLimitPoints: number;
  rateLimitWindowSeconds: number;
  trustProxyHops: number;
  /** Absolute http(s) URL without a trailing slash; unset: links use the request's own origin. */
  publicBaseUrl?: string;
  cacheMaxAgeSeconds: number;
  /** Bytes the in-process response cache may hold (0: no cache). */
  responseCacheBytes: number;
  /** Exports running at once in this instance (each client: one at a time). */
  exportConcurrency: number;
  /** Prometheus metrics on this port (GET /metrics); unset: no metrics server. */
  metricsPort?: number;
  /** Admission control in front of Elasticsearch (src/search/admission.ts). */
  admission: { maxInFlight: number; maxWaitMs: number };
  logLevel: LogLevel;
}

// One table: the schema, the error messages, the README and the compose-file check all read it.
const SPEC = {
  PORT: {
    default: '3000',
    meaning: 'TCP port the API listens on (0: any free port)',
    schema: { type: 'integer', minimum: 0, maximum: 65535 },
  },
  HOST: {
    expected: 'a host name or an IP address',
    default: '0.0.0.0',
    meaning: 'interface the API listens on',
    schema: { type: 'string', anyOf: [{ format: 'hostname' }, { format: 'ipv4' }, { format: 'ipv6' }] },
  },
  ...ES_VARIABLES_SPEC,
  REDIS_URL: {
    expected:
      'a redis:// or rediss:// URL, redis+cluster://host:port,host:port,… (Cluster seed nodes) or ' +
      'redis+sentinel://host:port,…/<master name> (Sentinel)',
    meaning:
      'shared rate-limit store: one Redis, a Cluster (`redis+cluster://`) or Sentinel (`redis+sentinel://`); ' +
      'unset: in-memory limits (one instance)',
    schema: { type: 'string', format: 'redis-url' },
    explain: redisUrlProblem,
  },
  RATE_LIMIT_POINTS: {
    default: '60',
    meaning: 'requests allowed per client IP per window',
    schema: { type: 'integer', minimum: 1, maximum: 1_000_000 },
  },
  RATE_LIMIT_WINDOW_S: {
    unit: 'seconds',
    default: '60',
    meaning: 'length of the rate-limit window in seconds',
    schema: { type: 'integer', minimum: 1, maximum: 86_400 },
  },
  TRUST_PROXY_HOPS: {
    default: '0',
    meaning: 'proxies in front that append to X-Forwarded-For (0: use the socket address)',
    schema: { type: 'integer', minimum: 0, maximum: 32 },
  },
  PUBLIC_BASE_URL: {
    expected: 'an absolute http(s) URL without query, fragment or credentials, e.g. https://api.example.org',
    meaning: 'base for absolute links; unset: derived from the request',
    schema: { type: 'string', format: 'http-url' },
  },
  CACHE_MAX_AGE_S: {
    unit: 'seconds',
    default: '60',
    meaning: 'Cache-Control max-age on 200 answers',
    schema: { type: 'integer', minimum: 0, maximum: 31_536_000 },
  },
  RESPONSE_CACHE_MB: {
    unit: 'mebibytes',
    default: '32',
    meaning:
      'in-process cache of finished answers (list, detail, statistics, suggest) of the live index generation, bounded in MiB; 0: none',
    schema: { type: 'integer', minimum: 0, maximum: 65_536 },
  },
  EXPORT_CONCURRENCY: {
    default: '4',
    meaning: 'exports (GET /api/v1/ppas/export) running at once per instance; beyond it 429',
    schema: { type: 'integer', minimum: 1, maximum: 64 },
  },
  ADMISSION_MAX_IN_FLIGHT: {
    default: '64',
    meaning:
      "the most searches this instance has in flight in Elasticsearch; below it the limit adapts to Elasticsearch's latency by itself (beyond it: a short wait, then 503 overloaded)",
    schema: { type: 'integer', minimum: 1, maximum: 1024 },
  },
  ADMISSION_MAX_WAIT_MS: {
    unit: 'milliseconds',
    default: '100',
    meaning:
      'the longest a search waits for a free slot; one that would wait longer (by the recent pace of searches) is refused at once (503 overloaded, not run); 0: no wait',
    schema: { type: 'integer', minimum: 0, maximum: 1000 },
  },
  METRICS_PORT: {
    unit: 'another port than PORT',
    meaning: 'Prometheus metrics (GET /metrics) on this port of HOST, apart from the API; unset: none',
    schema: { type: 'integer', minimum: 1, maximum: 65535 },
  },
  LOG_LEVEL: {
    default: 'info',
    meaning: 'pino log level',
    schema: { type: 'string', enum: [...LOG_LEVELS] },
  },
} as const satisfies Record<string, VariableSpec>;

export type ConfigVariable = keyof typeof SPEC;

export const CONFIG_VARIABLES_SPEC: Readonly<Record<ConfigVariable, VariableSpec>> = SPEC;

/** Every environment variable the API reads (the compose file and README are checked against it). */
export const CONFIG_VARIABLES = Object.keys(CONFIG_VARIABLES_SPEC) as ConfigVariable[];

const readVariables = createVariablesReader(CONFIG_VARIABLES_SPEC, [ES_CREDENTIAL_RULES], {
  'redis-url': (value) => redisUrlProblem(value) === undefined,
});

interface ValidatedEnvironment {
  PORT: number;
  HOST: string;
  REDIS_URL?: string;
  RATE_LIMIT_POINTS: number;
  RATE_LIMIT_WINDOW_S: number;
  TRUST_PROXY_HOPS: number;
  PUBLIC_BASE_URL?: string;
  CACHE_MAX_AGE_S: number;
  RESPONSE_CACHE_MB: number;
  EXPORT_CONCURRENCY: number;
  METRICS_PORT?: number;
  ADMISSION_MAX_IN_FLIGHT: number;
  ADMISSION_MAX_WAIT_MS: number;
  LOG_LEVEL: LogLevel;
}

/**
 * Reads and validates the configuration from `env` (normally process.env). An empty or blank value counts as
 * unset (compose files often write `VAR=`). Throws a ConfigError naming every bad variable.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const values = readVariables(env);
  // The schema has checked every value, so these casts only restate it.
  const value = values as unknown as ValidatedEnvironment;
  return {
    port: value.PORT,
    host: value.HOST,
    es: esSettingsFrom(values),
    redisUrl: value.REDIS_URL,
    rateLimitPoints: value.RATE_LIMIT_POINTS,
    rateLimitWindowSeconds: value.RATE_LIMIT_WINDOW_S,
    trustProxyHops: value.TRUST_PROXY_HOPS,
    publicBaseUrl: value.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    cacheMaxAgeSeconds: value.CACHE_MAX_AGE_S,
    responseCacheBytes: value.RESPONSE_CACHE_MB * 1024 * 1024,
    exportConcurrency: value.EXPORT_CONCURRENCY,
    ...(value.METRICS_PORT !== undefined ? { metricsPort: value.METRICS_PORT } : {}),
    admission: { maxInFlight: value.ADMISSION_MAX_IN_FLIGHT, maxWaitMs: value.ADMISSION_MAX_WAIT_MS },
    logLevel: value.LOG_LEVEL,
  };
}

/** The defaults as a Config (what an empty environment gives). */
export function defaultConfig(): Config {
  return loadConfig({});
}
