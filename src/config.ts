// The API's configuration: every environment variable it reads, validated once at start-up with ajv.
// `loadConfig` is pure (it reads only the object it is given), so tests can check every variable.
import type { ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /** Elasticsearch node URLs (ES_URL, comma-separated). */
  esNodes: string[];
  esApiKey?: string;
  esUsername?: string;
  esPassword?: string;
  /** The alias (or index) the API reads. */
  esIndex: string;
  esRequestTimeoutMs: number;
  /** Unset: in-memory rate limits (one instance). */
  redisUrl?: string;
  rateLimitPoints: number;
  rateLimitWindowSeconds: number;
  trustProxyHops: number;
  /** Absolute http(s) URL without a trailing slash; unset: links use the request's own origin. */
  publicBaseUrl?: string;
  cacheMaxAgeSeconds: number;
  logLevel: LogLevel;
}

export interface VariableSpec {
  /** What a good value looks like, for the error message. */
  expected: string;
  /** Default as the environment would spell it; absent: the variable is optional with no default. */
  default?: string;
  meaning: string;
  schema: Record<string, unknown>;
}

// One table: the schema, the error messages, the README and the compose-file check all read it.
const SPEC = {
  PORT: {
    expected: 'an integer from 0 to 65535',
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
  ES_URL: {
    expected: 'one or more http(s) URLs (no credentials: use ES_USERNAME/ES_PASSWORD) separated by commas',
    default: 'http://127.0.0.1:9200',
    meaning: 'Elasticsearch node(s), comma-separated',
    schema: { type: 'array', minItems: 1, items: { type: 'string', format: 'http-url' } },
  },
  ES_API_KEY: {
    expected: 'a non-empty API key (and then no ES_USERNAME/ES_PASSWORD)',
    meaning: 'Elasticsearch API key (base64 "id:key"), when security is on',
    schema: { type: 'string', minLength: 1, pattern: '^\\S+$' },
  },
  ES_USERNAME: {
    expected: 'a user name, set together with ES_PASSWORD',
    meaning: 'Elasticsearch basic-auth user (with ES_PASSWORD), when security is on',
    schema: { type: 'string', minLength: 1 },
  },
  ES_PASSWORD: {
    expected: 'a password, set together with ES_USERNAME',
    meaning: 'Elasticsearch basic-auth password (with ES_USERNAME)',
    schema: { type: 'string', minLength: 1 },
  },
  ES_INDEX: {
    expected:
      'an Elasticsearch alias name: lowercase letters, digits, ".", "_", "-", not starting with "-", "_" or "."',
    default: 'ppas',
    meaning: 'the alias the API reads and the indexer swaps',
    schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,254}$' },
  },
  ES_REQUEST_TIMEOUT_MS: {
    expected: 'an integer from 1 to 300000 (milliseconds)',
    default: '2000',
    meaning: 'per-request timeout to Elasticsearch; past it the API answers 503',
    schema: { type: 'integer', minimum: 1, maximum: 300_000 },
  },
  REDIS_URL: {
    expected: 'a redis:// or rediss:// URL',
    meaning: 'shared rate-limit store; unset: in-memory limits (one instance)',
    schema: { type: 'string', format: 'redis-url' },
  },
  RATE_LIMIT_POINTS: {
    expected: 'an integer from 1 to 1000000',
    default: '60',
    meaning: 'requests allowed per client IP per window',
    schema: { type: 'integer', minimum: 1, maximum: 1_000_000 },
  },
  RATE_LIMIT_WINDOW_S: {
    expected: 'an integer from 1 to 86400 (seconds)',
    default: '60',
    meaning: 'length of the rate-limit window in seconds',
    schema: { type: 'integer', minimum: 1, maximum: 86_400 },
  },
  TRUST_PROXY_HOPS: {
    expected: 'an integer from 0 to 32',
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
    expected: 'an integer from 0 to 31536000 (seconds)',
    default: '60',
    meaning: 'Cache-Control max-age on 200 answers',
    schema: { type: 'integer', minimum: 0, maximum: 31_536_000 },
  },
  LOG_LEVEL: {
    expected: `one of ${LOG_LEVELS.join(', ')}`,
    default: 'info',
    meaning: 'pino log level',
    schema: { type: 'string', enum: [...LOG_LEVELS] },
  },
} as const satisfies Record<string, VariableSpec>;

export type ConfigVariable = keyof typeof SPEC;

export const CONFIG_VARIABLES_SPEC: Readonly<Record<ConfigVariable, VariableSpec>> = SPEC;

/** Every environment variable the API reads (the compose file and README are checked against it). */
export const CONFIG_VARIABLES = Object.keys(CONFIG_VARIABLES_SPEC) as ConfigVariable[];

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration: ${problems.map((problem) => problem.message).join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** An absolute http(s) URL, possibly with a path, without credentials, query or fragment. */
function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password || url.search || url.hash || value.includes('#') || value.includes('?')) {
    return false;
  }
  return true;
}

function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv, ['hostname', 'ipv4', 'ipv6']);
ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
ajv.addFormat('redis-url', { type: 'string', validate: isRedisUrl });

const validateEnvironment = ajv.compile({
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(CONFIG_VARIABLES_SPEC).map(([name, spec]) => [name, spec.schema]),
  ),
  dependentRequired: { ES_USERNAME: ['ES_PASSWORD'], ES_PASSWORD: ['ES_USERNAME'] },
  not: { anyOf: [{ required: ['ES_API_KEY', 'ES_USERNAME'] }, { required: ['ES_API_KEY', 'ES_PASSWORD'] }] },
});

function describe(error: ErrorObject, raw: Record<string, string>): { variable: string; message: string } {
  if (error.keyword === 'dependentRequired') {
    const params = error.params as { property: string; missingProperty: string };
    return {
      variable: params.missingProperty,
      message: `${params.property} is set but ${params.missingProperty} is not: set both or neither`,
    };
  }
  if (error.keyword === 'not') {
    return {
      variable: 'ES_API_KEY',
      message: 'ES_API_KEY and ES_USERNAME/ES_PASSWORD are both set: use one way of authenticating',
    };
  }
  const variable = error.instancePath.split('/')[1] as ConfigVariable;
  const spec = CONFIG_VARIABLES_SPEC[variable];
  // Never echo a secret: not the key or password, nor credentials written into a URL.
  const secret = variable === 'ES_PASSWORD' || variable === 'ES_API_KEY' || variable === 'ES_USERNAME';
  const shown = raw[variable]?.replace(/\/\/[^/@]*@/g, '//***@');
  const got = secret ? '' : ` (got ${JSON.stringify(shown)})`;
  return { variable, message: `${variable} must be ${spec.expected}${got}` };
}

interface ValidatedEnvironment {
  PORT: number;
  HOST: string;
  ES_URL: string[];
  ES_API_KEY?: string;
  ES_USERNAME?: string;
  ES_PASSWORD?: string;
  ES_INDEX: string;
  ES_REQUEST_TIMEOUT_MS: number;
  REDIS_URL?: string;
  RATE_LIMIT_POINTS: number;
  RATE_LIMIT_WINDOW_S: number;
  TRUST_PROXY_HOPS: number;
  PUBLIC_BASE_URL?: string;
  CACHE_MAX_AGE_S: number;
  LOG_LEVEL: LogLevel;
}

/**
 * Reads and validates the configuration from `env` (normally process.env). An empty or blank value counts as
 * unset (compose files often write `VAR=`). Throws a ConfigError naming every bad variable.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const raw: Record<string, string> = {};
  for (const name of CONFIG_VARIABLES) {
    const value = env[name]?.trim();
    if (value) raw[name] = value;
  }
  const values: Record<string, unknown> = {};
  for (const name of CONFIG_VARIABLES) {
    const spec = CONFIG_VARIABLES_SPEC[name];
    const value = raw[name] ?? spec.default;
    if (value === undefined) continue;
    if (name === 'ES_URL') values[name] = value.split(',').map((node) => node.trim());
    // Only plain decimal digits become numbers ("1e3", "0x10", "3.0" stay strings and fail the schema).
    else if (spec.schema.type === 'integer' && /^\d{1,15}$/.test(value)) values[name] = Number(value);
    else values[name] = value;
  }
  if (!validateEnvironment(values)) {
    const problems = (validateEnvironment.errors ?? []).map((error) => describe(error, raw));
    // One message per variable even when several keywords failed (HOST's anyOf reports each branch).
    const unique = [...new Map(problems.map((problem) => [problem.message, problem])).values()];
    throw new ConfigError(unique);
  }
  // The schema has checked every value, so these casts only restate it.
  const value = values as unknown as ValidatedEnvironment;
  return {
    port: value.PORT,
    host: value.HOST,
    esNodes: value.ES_URL.map((node) => node.replace(/\/+$/, '')),
    esApiKey: value.ES_API_KEY,
    esUsername: value.ES_USERNAME,
    esPassword: value.ES_PASSWORD,
    esIndex: value.ES_INDEX,
    esRequestTimeoutMs: value.ES_REQUEST_TIMEOUT_MS,
    redisUrl: value.REDIS_URL,
    rateLimitPoints: value.RATE_LIMIT_POINTS,
    rateLimitWindowSeconds: value.RATE_LIMIT_WINDOW_S,
    trustProxyHops: value.TRUST_PROXY_HOPS,
    publicBaseUrl: value.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    cacheMaxAgeSeconds: value.CACHE_MAX_AGE_S,
    logLevel: value.LOG_LEVEL,
  };
}

/** The defaults as a Config (what an empty environment gives). */
export function defaultConfig(): Config {
  return loadConfig({});
}
