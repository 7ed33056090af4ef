// Environment variables read through one table (name → what a good value looks like, default, meaning, JSON
// Schema) and validated at once with ajv, so a bad start-up names every bad variable. Both programs use it: the
// API for all of its variables (src/config.ts), the indexer for the ES_* ones (settings/elasticsearch.ts).
import type { ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export interface VariableSpec {
  /**
   * What a good value looks like, for the error message, where the schema cannot say it (a URL's shape); absent:
   * said from the schema itself (an integer's range, an enum), so a bound is written once.
   */
  expected?: string;
  /** The unit or a condition, said after a range from the schema: "seconds", "another port than PORT". */
  unit?: string;
  /** Default as the environment would spell it; absent: the variable is optional with no default. */
  default?: string;
  meaning: string;
  /** A JSON Schema (a plain object, or a TypeBox schema, which is one). */
  schema: object;
  /** A comma-separated list, validated item by item (the schema is then an array schema). */
  list?: true;
  /** Never echoed in an error message. */
  secret?: true;
  /** Why a value that failed the schema is wrong, when `expected` alone would leave the reader guessing. */
  explain?: (value: string) => string | undefined;
}

/** What a good value looks like: the spec's words, else the schema's range or choices. */
export function expectedOf(entry: VariableSpec): string {
  if (entry.expected) return entry.expected;
  const {
    type,
    minimum,
    maximum,
    enum: choices,
  } = entry.schema as {
    type?: string;
    minimum?: number;
    maximum?: number;
    enum?: readonly string[];
  };
  const unit = entry.unit ? ` (${entry.unit})` : '';
  if (choices) return `one of ${choices.join(', ')}${unit}`;
  if (type === 'integer' && minimum !== undefined && maximum !== undefined) {
    return `an integer from ${minimum} to ${maximum}${unit}`;
  }
  return `a valid ${type ?? 'value'}${unit}`;
}

export interface VariableProblem {
  variable: string;
  message: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: VariableProblem[]) {
    super(`Invalid configuration: ${problems.map((problem) => problem.message).join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Rules across variables: extra JSON Schema keywords, and the message for each keyword they use. */
export interface CrossVariableRules {
  schema: Record<string, unknown>;
  describe(error: ErrorObject): VariableProblem | undefined;
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

const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv, ['hostname', 'ipv4', 'ipv6']);
ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });

/**
 * Reads the variables of `spec` from `env` (an empty or blank value counts as unset: compose files often write
 * `VAR=`), applies defaults, turns digit strings of integer variables into numbers and lists into arrays, and
 * validates. Returns the values by variable name; throws a ConfigError naming every bad variable.
 */
export function createVariablesReader(
  spec: Readonly<Record<string, VariableSpec>>,
  rules: CrossVariableRules[] = [],
  /** String formats of the caller's own (e.g. the API's `redis-url`), by name. */
  formats: Record<string, (value: string) => boolean> = {},
): (
  env: Readonly<Record<string, string | undefined>>,
  defaults?: Record<string, string>,
) => Record<string, unknown> {
  for (const [name, isValid] of Object.entries(formats)) {
    if (!ajv.formats[name]) ajv.addFormat(name, { type: 'string', validate: isValid });
  }
  const validate = ajv.compile({
    type: 'object',
    properties: Object.fromEntries(Object.entries(spec).map(([name, entry]) => [name, entry.schema])),
    ...(rules.length > 0 ? { allOf: rules.map((rule) => rule.schema) } : {}),
  });
  const names = Object.keys(spec);

  function describe(error: ErrorObject, raw: Record<string, string>): VariableProblem {
    for (const rule of rules) {
      const problem = rule.describe(error);
      if (problem) return problem;
    }
    const variable = error.instancePath.split('/')[1] ?? '';
    const entry = spec[variable];
    // Never echo a secret: not the key or password, nor credentials written into a URL.
    const shown = raw[variable]?.replace(/\/\/[^/@]*@/g, '//***@');
    const got = entry?.secret ? '' : ` (got ${JSON.stringify(shown)})`;
    const value = raw[variable];
    const why = value === undefined ? undefined : entry?.explain?.(value);
    return {
      variable,
      message: `${variable} must be ${entry ? expectedOf(entry) : 'valid'}${got}${why ? `: ${why}` : ''}`,
    };
  }

  return (env, defaults = {}) => {
    const raw: Record<string, string> = {};
    for (const name of names) {
      const value = env[name]?.trim();
      if (value) raw[name] = value;
    }
    const values: Record<string, unknown> = {};
    for (const name of names) {
      const entry = spec[name]!;
      const value = raw[name] ?? defaults[name] ?? entry.default;
      if (value === undefined) continue;
      if (entry.list) values[name] = value.split(',').map((item) => item.trim());
      // Only plain decimal digits become numbers ("1e3", "0x10", "3.0" stay strings and fail the schema).
      else if ((entry.schema as { type?: unknown }).type === 'integer' && /^\d{1,15}$/.test(value))
        values[name] = Number(value);
      else values[name] = value;
    }
    if (!validate(values)) {
      const problems = (validate.errors ?? [])
        .filter((error) => error.keyword !== 'allOf')
        .map((error) => describe(error, raw));
      // One message per variable even when several keywords failed (HOST's anyOf reports each branch).
      throw new ConfigError([...new Map(problems.map((problem) => [problem.message, problem])).values()]);
    }
    return values;
  };
}
