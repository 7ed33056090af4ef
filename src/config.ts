// The API's configuration: every environment variable it reads, validated once at start-up with ajv.
// `loadConfig` is pure (it reads only the object it is given), so tests can check every variable.
import {
  ES_CREDENTIAL_RULES,
  ES_VARIABLES_SPEC,
  esSettingsFrom,
  type EsSettings,
} from '../settings/elasticsearch.js';
import { redisUrlProblem } from '../settings/redisUrl.js';
import {
  DEFAULT_ZERO_RESULTS_RETENTION_DAYS,
  MAX_ZERO_RESULTS_RETENTION_DAYS,
} from '../settings/zeroResults.js';
import { ConfigError, createVariablesReader, type VariableSpec } from '../settings/variables.js';
import Type, { type Static, type TSchema } from 'typebox';

export { ConfigError, type VariableSpec };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** OCDS_OCID_PREFIX's default: it says what it is, so that nobody takes it for a registered prefix. */
export const UNREGISTERED_OCID_PREFIX = 'ocds-unregistered';

/** In-flight requests get this long after a signal; then open connections are cut (Docker waits 10 s; server.ts). */
export const SHUTDOWN_GRACE_MS = 8_000;

/**
 * One variable of the API: how it is read and checked (VariableSpec: the schema, default, meaning, for the errors, the
 * README and the compose-file check) and where its value goes in Config (`field`, after `convert` when the value
 * is stored in another unit). Its type in Config is derived from its schema.
 */
interface ApiVariable<F extends string, S extends TSchema, V = Static<S>> extends VariableSpec {
  field: F;
  schema: S;
  convert?: (value: Static<S>) => V;
}

/** A variable with a default: always set in Config. */
const variable = <F extends string, S extends TSchema, V = Static<S>>(
  spec: ApiVariable<F, S, V> & { default: string },
) => spec;

/** A variable without a default: absent from Config when unset. */
const optional = <F extends string, S extends TSchema, V = Static<S>>(
  spec: ApiVariable<F, S, V> & { default?: never },
) => ({ ...spec, optional: true as const });

// One declaration per variable: the table below is all there is to add one.
const SPEC = {
  PORT: variable({
    field: 'port',
    default: '3000',
    meaning: 'TCP port the API listens on (0: any free port)',
    schema: Type.Integer({ minimum: 0, maximum: 65535 }),
  }),
  HOST: variable({
    field: 'host',
    expected: 'a host name or an IP address',
    default: '0.0.0.0',
    meaning: 'interface the API listens on',
    schema: Type.Unsafe<string>({
      type: 'string',
      anyOf: [{ format: 'hostname' }, { format: 'ipv4' }, { format: 'ipv6' }],
    }),
  }),
  ...ES_VARIABLES_SPEC,
  REDIS_URL: optional({
    field: 'redisUrl',
    expected:
      'a redis:// or rediss:// URL, redis+cluster://host:port,host:port,… (Cluster seed nodes) or ' +
      'redis+sentinel://host:port,…/<master name> (Sentinel)',
    meaning:
      'shared rate-limit store: `redis://` or `rediss://` (one Redis), `redis+cluster://h:p,h:p,…` (Cluster seed ' +
      'nodes) or `redis+sentinel://h:p,…/<master name>[/<db>]` (Sentinel; `rediss+…` for TLS); unset: in-memory ' +
      'limits (one instance)',
    schema: Type.String({ format: 'redis-url' }),
    explain: redisUrlProblem,
  }),
  ZERO_RESULTS_RETENTION_DAYS: variable({
    field: 'zeroResultsRetentionDays',
    unit: 'days',
    default: String(DEFAULT_ZERO_RESULTS_RETENTION_DAYS),
    meaning:
      "how long the searches that found nothing are kept, a day at a time, in the rate limiter's Redis (in memory without REDIS_URL); `ppa-indexer searches --zero-results` reports them",
    schema: Type.Integer({ minimum: 1, maximum: MAX_ZERO_RESULTS_RETENTION_DAYS }),
  }),
  RATE_LIMIT_POINTS: variable({
    field: 'rateLimitPoints',
    default: '60',
    meaning: 'requests allowed per client IP per window',
    schema: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  }),
  RATE_LIMIT_WINDOW_S: variable({
    field: 'rateLimitWindowSeconds',
    unit: 'seconds',
    default: '60',
    meaning: 'length of the rate-limit window in seconds',
    schema: Type.Integer({ minimum: 1, maximum: 86_400 }),
  }),
  TRUST_PROXY_HOPS: variable({
    field: 'trustProxyHops',
    default: '0',
    meaning: 'proxies in front that append to X-Forwarded-For (0: use the socket address)',
    schema: Type.Integer({ minimum: 0, maximum: 32 }),
  }),
  PUBLIC_BASE_URL: optional({
    field: 'publicBaseUrl',
    expected: 'an absolute http(s) URL without query, fragment or credentials, e.g. https://api.example.org',
    meaning: 'base for absolute links; unset: derived from the request',
    schema: Type.String({ format: 'http-url' }),
    convert: (url: string) => url.replace(/\/+$/, ''),
  }),
  CACHE_MAX_AGE_S: variable({
    field: 'cacheMaxAgeSeconds',
    unit: 'seconds',
    default: '60',
    meaning: 'Cache-Control max-age on 200 answers',
    schema: Type.Integer({ minimum: 0, maximum: 31_536_000 }),
  }),
  RESPONSE_CACHE_MB: variable({
    field: 'responseCacheBytes',
    unit: 'mebibytes',
    default: '32',
    meaning:
      'in-process cache of finished answers (list, detail, statistics, suggest) of the live index generation, bounded in MiB; 0: none',
    schema: Type.Integer({ minimum: 0, maximum: 65_536 }),
    convert: (mebibytes: number) => mebibytes * 1024 * 1024,
  }),
  EXPORT_CONCURRENCY: variable({
    field: 'exportConcurrency',
    default: '4',
    meaning: 'exports (GET /api/v1/ppas/export) running at once per instance; beyond it 429',
    schema: Type.Integer({ minimum: 1, maximum: 64 }),
  }),
  ADMISSION_MAX_IN_FLIGHT: variable({
    field: 'admissionMaxInFlight',
    default: '64',
    meaning:
      "the most searches this instance has in flight in Elasticsearch; below it the limit adapts to Elasticsearch's latency by itself (the others wait their turn)",
    schema: Type.Integer({ minimum: 1, maximum: 1024 }),
  }),
  ADMISSION_TARGET_MS: variable({
    field: 'admissionTargetMs',
    unit: 'milliseconds',
    default: '1000',
    meaning:
      "the time to an answer admission aims at: a search waits for a slot while its answer can still come within it (by Elasticsearch's recent latency), and is refused at once otherwise (503 overloaded, not run); at most half of ES_REQUEST_TIMEOUT_MS is used, so that an admitted search has time left for a retry",
    schema: Type.Integer({ minimum: 1, maximum: 60_000 }),
  }),
  ADMISSION_LOOP_DELAY_MS: variable({
    field: 'admissionLoopDelayMs',
    unit: 'milliseconds',
    default: '40',
    meaning:
      "the mean delay of this process's event loop past which the front door refuses searches (503 overloaded, not run) when it lasts three 100 ms intervals in a row: the process is then its own bottleneck; raise it where neighbours share the cores and starve the process for short spells",
    schema: Type.Integer({ minimum: 5, maximum: 10_000 }),
  }),
  METRICS_PORT: optional({
    field: 'metricsPort',
    unit: 'another port than PORT',
    meaning: 'Prometheus metrics (GET /metrics) on this port of HOST, apart from the API; unset: none',
    schema: Type.Integer({ minimum: 1, maximum: 65535 }),
  }),
  OCDS_OCID_PREFIX: variable({
    field: 'ocidPrefix',
    expected:
      '`ocds-` and the six letters or digits the Open Contracting Partnership registered, e.g. ocds-a1b2c3',
    default: UNREGISTERED_OCID_PREFIX,
    meaning:
      'the ocid prefix of the OCDS answers (an ocid is the prefix, `-` and the slug); the default is not registered: register one before publishing (docs/ocds.md)',
    schema: Type.String({ pattern: `^(?:ocds-[a-z0-9]{6}|${UNREGISTERED_OCID_PREFIX})$` }),
  }),
  OCDS_PUBLISHER_NAME: variable({
    field: 'ocdsPublisherName',
    default: 'PPA search API',
    meaning: "the OCDS packages' `publisher.name`: the organization that publishes the data",
    schema: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  }),
  OCDS_LICENSE: optional({
    field: 'ocdsLicense',
    expected: 'an absolute http(s) URL, e.g. https://creativecommons.org/licenses/by/4.0/',
    meaning: "the OCDS packages' `license`: the URL of the data's license; unset: none is stated",
    schema: Type.String({ format: 'http-url' }),
  }),
  OCDS_PUBLICATION_POLICY: optional({
    field: 'ocdsPublicationPolicy',
    expected: 'an absolute http(s) URL',
    meaning:
      "the OCDS packages' `publicationPolicy`: the URL of the publication policy; unset: none is stated",
    schema: Type.String({ format: 'http-url' }),
  }),
  LOG_LEVEL: variable({
    field: 'logLevel',
    default: 'info',
    meaning: `pino log level (${LOG_LEVELS.join(', ')})`,
    schema: Type.Unsafe<LogLevel>({ type: 'string', enum: [...LOG_LEVELS] }),
  }),
  OTEL_TRACES_EXPORTER: variable({
    field: 'tracesExporter',
    default: 'none',
    meaning:
      '`otlp`: traces on, sent over OTLP/HTTP (JSON): a server span per request with the Elasticsearch client\'s spans and the admission wait beneath it, and `trace_id` in the request log line; `none`: off, no span is made (docs/operations.md, "Traces")',
    schema: Type.Unsafe<'none' | 'otlp'>({ type: 'string', enum: ['none', 'otlp'] }),
  }),
  OTEL_SDK_DISABLED: variable({
    field: 'otelSdkDisabled',
    default: 'false',
    meaning: '`true`: traces off, whatever OTEL_TRACES_EXPORTER says',
    schema: Type.Unsafe<'true' | 'false'>({ type: 'string', enum: ['true', 'false'] }),
    convert: (value: 'true' | 'false') => value === 'true',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: optional({
    field: 'otlpEndpoint',
    expected: 'an absolute http(s) URL without query, fragment or credentials, e.g. http://collector:4318',
    meaning:
      'base URL of the OTLP/HTTP receiver traces are sent to (`/v1/traces` is added); unset: http://localhost:4318',
    schema: Type.String({ format: 'http-url' }),
    convert: (url: string) => `${url.replace(/\/+$/, '')}/v1/traces`,
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optional({
    field: 'otlpTracesEndpoint',
    expected:
      'an absolute http(s) URL without query, fragment or credentials, e.g. http://collector:4318/v1/traces',
    meaning: 'the full URL traces are sent to, taken as it is (before OTEL_EXPORTER_OTLP_ENDPOINT)',
    schema: Type.String({ format: 'http-url' }),
  }),
  OTEL_SERVICE_NAME: variable({
    field: 'otelServiceName',
    default: 'ppa-search-api',
    meaning: "the traces' `service.name`",
    schema: Type.String({ minLength: 1, maxLength: 255 }),
  }),
} as const satisfies Record<string, VariableSpec>;

type Spec = typeof SPEC;
/** The API's own variables (the ES_* ones make up `es`). */
type ApiVariableName = { [K in keyof Spec]: Spec[K] extends { field: string } ? K : never }[keyof Spec];
type FieldOf<K extends ApiVariableName> = Spec[K]['field'];
type ValueOf<K extends ApiVariableName> = Spec[K] extends { convert?: (value: never) => infer V } ? V : never;
type IsOptional<K extends ApiVariableName> = Spec[K] extends { optional: true } ? true : false;

/** The API's configuration: one field per variable, typed by its schema, and `es` from the ES_* variables. */
export type Config = {
  -readonly [K in ApiVariableName as IsOptional<K> extends true ? never : FieldOf<K>]: ValueOf<K>;
} & {
  -readonly [K in ApiVariableName as IsOptional<K> extends true ? FieldOf<K> : never]?: ValueOf<K>;
} & {
  /** Elasticsearch nodes, credentials, the alias the API reads, the per-request timeout (the ES_* variables). */
  es: EsSettings;
};

export type ConfigVariable = keyof Spec;

export const CONFIG_VARIABLES_SPEC: Readonly<Record<ConfigVariable, VariableSpec>> = SPEC;

/** Every environment variable the API reads (the compose file and README are checked against it). */
export const CONFIG_VARIABLES = Object.keys(CONFIG_VARIABLES_SPEC) as ConfigVariable[];

const readVariables = createVariablesReader(CONFIG_VARIABLES_SPEC, [ES_CREDENTIAL_RULES], {
  'redis-url': (value) => redisUrlProblem(value) === undefined,
});

/**
 * Reads and validates the configuration from `env` (normally process.env). An empty or blank value counts as
 * unset (compose files often write `VAR=`). Throws a ConfigError naming every bad variable.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const values = readVariables(env);
  const config: Record<string, unknown> = { es: esSettingsFrom(values) };
  for (const [name, spec] of Object.entries(SPEC)) {
    if (!('field' in spec)) continue;
    const value = values[name];
    if (value === undefined) continue;
    // The schema has checked the value: convert only changes its unit.
    const convert = spec.convert as ((value: unknown) => unknown) | undefined;
    config[spec.field] = convert ? convert(value) : value;
  }
  return config as Config;
}

/** The defaults as a Config (what an empty environment gives). */
export function defaultConfig(): Config {
  return loadConfig({});
}
