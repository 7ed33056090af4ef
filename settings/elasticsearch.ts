// The ES_* variables: how both programs find and authenticate to Elasticsearch, and the alias they share. One
// table and one set of rules: the API reads them with its other variables (src/config.ts), the indexer alone.
import type { ClientOptions } from '@elastic/elasticsearch';
import {
  ConfigError,
  createVariablesReader,
  type CrossVariableRules,
  type VariableSpec,
} from './variables.js';

// Elasticsearch allows 255 bytes in an index name; the indexer appends `-yyyymmddthhmmssSSSz` (19) to the alias
// for its data indices, so an alias may have 236 characters.
const ALIAS_PATTERN = '^[a-z0-9][a-z0-9._-]{0,235}$';
const ALIAS_EXPECTED =
  'an Elasticsearch alias name: at most 236 lowercase letters, digits, ".", "_", "-", not starting with "-", "_" or "."';

export const ES_VARIABLES_SPEC = {
  ES_URL: {
    expected: 'one or more http(s) URLs (no credentials: use ES_USERNAME/ES_PASSWORD) separated by commas',
    default: 'http://127.0.0.1:9200',
    meaning: 'Elasticsearch node(s), comma-separated; a search whose node fails is tried again on another',
    schema: { type: 'array', minItems: 1, items: { type: 'string', format: 'http-url' } },
    list: true,
  },
  ES_API_KEY: {
    expected: 'a non-empty API key (and then no ES_USERNAME/ES_PASSWORD)',
    meaning: 'Elasticsearch API key (base64 "id:key"), when security is on',
    schema: { type: 'string', minLength: 1, pattern: '^\\S+$' },
    secret: true,
  },
  ES_USERNAME: {
    expected: 'a user name, set together with ES_PASSWORD',
    meaning: 'Elasticsearch basic-auth user (with ES_PASSWORD), when security is on',
    schema: { type: 'string', minLength: 1 },
    secret: true,
  },
  ES_PASSWORD: {
    expected: 'a password, set together with ES_USERNAME',
    meaning: 'Elasticsearch basic-auth password (with ES_USERNAME)',
    schema: { type: 'string', minLength: 1 },
    secret: true,
  },
  ES_INDEX: {
    expected: ALIAS_EXPECTED,
    default: 'ppas',
    meaning: 'the alias the API reads and the indexer swaps',
    schema: { type: 'string', pattern: ALIAS_PATTERN },
  },
  ES_REQUEST_TIMEOUT_MS: {
    unit: 'milliseconds',
    default: '2000',
    meaning:
      'deadline of one search to Elasticsearch, retries on other nodes included; past it the API answers 503',
    schema: { type: 'integer', minimum: 1, maximum: 300_000 },
  },
} as const satisfies Record<string, VariableSpec>;

/** One way of authenticating, or none: basic auth needs both halves, and not with an API key. */
export const ES_CREDENTIAL_RULES: CrossVariableRules = {
  schema: {
    dependentRequired: { ES_USERNAME: ['ES_PASSWORD'], ES_PASSWORD: ['ES_USERNAME'] },
    not: {
      anyOf: [{ required: ['ES_API_KEY', 'ES_USERNAME'] }, { required: ['ES_API_KEY', 'ES_PASSWORD'] }],
    },
  },
  describe(error) {
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
    return undefined;
  },
};

export interface EsSettings {
  /** Node URLs without a trailing slash. */
  nodes: string[];
  auth?: ClientOptions['auth'];
  /** The alias the API reads and the indexer swaps. */
  alias: string;
  requestTimeoutMs: number;
}

/** The ES_* values as the variables reader returns them (already validated). */
export function esSettingsFrom(values: Record<string, unknown>): EsSettings {
  const value = values as {
    ES_URL: string[];
    ES_API_KEY?: string;
    ES_USERNAME?: string;
    ES_PASSWORD?: string;
    ES_INDEX: string;
    ES_REQUEST_TIMEOUT_MS: number;
  };
  let auth: ClientOptions['auth'] | undefined;
  if (value.ES_API_KEY) auth = { apiKey: value.ES_API_KEY };
  else if (value.ES_USERNAME && value.ES_PASSWORD)
    auth = { username: value.ES_USERNAME, password: value.ES_PASSWORD };
  return {
    nodes: value.ES_URL.map((node) => node.replace(/\/+$/, '')),
    ...(auth ? { auth } : {}),
    alias: value.ES_INDEX,
    requestTimeoutMs: value.ES_REQUEST_TIMEOUT_MS,
  };
}

const readEsVariables = createVariablesReader(ES_VARIABLES_SPEC, [ES_CREDENTIAL_RULES]);

/**
 * The ES_* settings alone (the indexer's whole configuration). `defaults` overrides a variable's default, as
 * the indexer does for the timeout. Throws a ConfigError naming every bad variable.
 */
export function readEsSettings(
  env: Readonly<Record<string, string | undefined>>,
  defaults: Partial<Record<keyof typeof ES_VARIABLES_SPEC, string>> = {},
): EsSettings {
  return esSettingsFrom(readEsVariables(env, defaults));
}

/** The alias rule of ES_INDEX, for an alias given another way (the indexer's --alias); throws a ConfigError. */
export function checkAliasName(alias: string, source: string): string {
  if (!new RegExp(ALIAS_PATTERN).test(alias)) {
    throw new ConfigError([
      { variable: source, message: `${source} must be ${ALIAS_EXPECTED} (got ${JSON.stringify(alias)})` },
    ]);
  }
  return alias;
}
