// The parameters of a reconciliation service (W3C Reconciliation Service API 0.2): a query batch (`queries`) or a
// data extension query (`extend`), each a JSON text, by GET or in a form POST; and those of its suggest, preview and
// property proposal endpoints. A batch is first checked against the specification's own schema, then against the
// contract's bounds; what is wrong is a 400 naming the parameter.
import Type from 'typebox';
import type { InvalidParam } from '../http/problem.js';
import { declareQuery, withDefault } from './declare.js';
import { reconciliationProblems } from './reconciliationSchemas.js';

export const MAX_BATCH_QUERIES = 50;
export const MAX_RECONCILE_QUERY_LENGTH = 200;
export const DEFAULT_CANDIDATES = 5;
export const MAX_CANDIDATES = 25;
/** Entities one data extension query may ask about: as many as a batch has queries. */
export const MAX_EXTEND_IDS = MAX_BATCH_QUERIES;
/**
 * The longest `queries` or `extend` text (characters): 50 queries of 200 characters with a few properties each,
 * and room for JSON escapes. A form body is bounded in bytes by the same figure (src/http/formBody.ts).
 */
export const MAX_BATCH_TEXT_LENGTH = 60_000;
export const MAX_SUGGEST_PREFIX_LENGTH = 100;
export const SUGGEST_PAGE = 10;
/** A suggest `cursor` skips at most this many: suggestions are for picking one, not for walking the index. */
export const MAX_SUGGEST_CURSOR = 90;

/** A value a query's property is compared with: its text (an entity given by id and name: its name, else its id). */
export interface PropertyValue {
  text: string;
  /** The entity's id, when the value is an entity reconciled before. */
  id?: string;
}

export interface PropertyConstraint {
  pid: string;
  /** Several values: the candidate agrees when it has any of them. */
  values: PropertyValue[];
}

export interface ReconcileQuery {
  /** The query's key in the batch: its result comes back under the same key. */
  key: string;
  query: string;
  /** The types asked for; absent: any. */
  types?: string[];
  limit: number;
  properties: PropertyConstraint[];
}

export interface ExtendQuery {
  ids: string[];
  properties: string[];
}

/** What one request to a service's root asks: its manifest, a batch, or a data extension. */
export type ServiceRequest =
  | { kind: 'manifest' }
  | { kind: 'batch'; queries: ReconcileQuery[] }
  | { kind: 'extend'; extend: ExtendQuery };

/** What a service takes: the property ids of its queries and the columns of its data extension. */
export interface ServiceVocabulary {
  queryProperties: readonly string[];
  extendProperties: readonly string[];
}

/** Parses a JSON text; undefined (with a problem) when it is not JSON. */
function parseJson(name: string, text: string, problems: InvalidParam[]): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    problems.push({ name, reason: 'is not JSON' });
    return undefined;
  }
}

/** The specification's schema first: one problem naming the parameter, with its first few findings. */
function schemaChecked(
  name: string,
  schema: 'queryBatch' | 'extendQuery',
  body: unknown,
  problems: InvalidParam[],
) {
  const found = reconciliationProblems(schema, body);
  if (found.length === 0) return true;
  const what = schema === 'queryBatch' ? 'a reconciliation query batch' : 'a data extension query';
  problems.push({ name, reason: `is not ${what} (Reconciliation API 0.2): ${found.slice(0, 3).join('; ')}` });
  return false;
}

type RawQuery = {
  query?: string;
  type?: string | string[];
  limit?: number;
  properties?: { pid: string; v: unknown }[];
};

function valueOf(value: unknown): PropertyValue {
  if (value !== null && typeof value === 'object') {
    const entity = value as { id: string; name?: string };
    return { text: entity.name ?? entity.id, id: entity.id };
  }
  return { text: String(value) };
}

/** One query within the contract's bounds, or the problems that keep it out. */
function readQuery(key: string, raw: RawQuery, vocabulary: ServiceVocabulary, problems: string[]) {
  const query = (raw.query ?? '').trim();
  if (query.length < 1 || query.length > MAX_RECONCILE_QUERY_LENGTH) {
    problems.push(`${key}: query must be 1 to ${MAX_RECONCILE_QUERY_LENGTH} characters`);
  }
  const limit = raw.limit ?? DEFAULT_CANDIDATES;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CANDIDATES) {
    problems.push(`${key}: limit must be an integer from 1 to ${MAX_CANDIDATES}`);
  }
  const properties = (raw.properties ?? []).map(({ pid, v }) => {
    if (!vocabulary.queryProperties.includes(pid)) {
      problems.push(`${key}: property "${pid}" is not one of ${vocabulary.queryProperties.join(', ')}`);
    }
    return { pid, values: (Array.isArray(v) ? v : [v]).map(valueOf) };
  });
  const types = raw.type === undefined ? undefined : Array.isArray(raw.type) ? raw.type : [raw.type];
  return { key, query, limit, properties, ...(types ? { types } : {}) };
}

/** A query batch's text as the queries it holds, in the batch's order; problems name `queries`. */
export function readQueryBatch(
  text: string,
  vocabulary: ServiceVocabulary,
  problems: InvalidParam[],
): ReconcileQuery[] {
  const batch = parseJson('queries', text, problems);
  if (batch === undefined || !schemaChecked('queries', 'queryBatch', batch, problems)) return [];
  const entries = Object.entries(batch as Record<string, RawQuery>);
  if (entries.length === 0 || entries.length > MAX_BATCH_QUERIES) {
    problems.push({
      name: 'queries',
      reason: `holds ${entries.length} queries; 1 to ${MAX_BATCH_QUERIES} are taken`,
    });
    return [];
  }
  const found: string[] = [];
  const queries = entries.map(([key, raw]) => readQuery(key, raw, vocabulary, found));
  for (const reason of found) problems.push({ name: 'queries', reason });
  return queries;
}

/** A data extension query's text: ids and property ids within the bounds; problems name `extend`. */
export function readExtendQuery(
  text: string,
  vocabulary: ServiceVocabulary,
  problems: InvalidParam[],
): ExtendQuery {
  const parsed = parseJson('extend', text, problems);
  if (parsed === undefined || !schemaChecked('extend', 'extendQuery', parsed, problems)) {
    return { ids: [], properties: [] };
  }
  const { ids, properties } = parsed as { ids: string[]; properties: { id: string }[] };
  if (ids.length > MAX_EXTEND_IDS) {
    problems.push({ name: 'extend', reason: `asks about ${ids.length} ids; at most ${MAX_EXTEND_IDS}` });
  }
  for (const { id } of properties) {
    if (!vocabulary.extendProperties.includes(id)) {
      problems.push({
        name: 'extend',
        reason: `property "${id}" is not one of ${vocabulary.extendProperties.join(', ')}`,
      });
    }
  }
  return { ids, properties: properties.map(({ id }) => id) };
}

/** The root of a service: `queries` or `extend` (not both); neither is its manifest. */
export function serviceQuery(vocabulary: ServiceVocabulary) {
  return declareQuery(
    {
      queries: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: MAX_BATCH_TEXT_LENGTH,
          description:
            `A reconciliation query batch (Reconciliation Service API 0.2), as JSON: at most ${MAX_BATCH_QUERIES} ` +
            `queries, each with \`query\` (1 to ${MAX_RECONCILE_QUERY_LENGTH} characters), optional \`type\`, ` +
            `\`limit\` (1 to ${MAX_CANDIDATES}, default ${DEFAULT_CANDIDATES}) and \`properties\` ` +
            `(\`pid\`: ${vocabulary.queryProperties.join(', ')}). By GET or in a form POST. Absent (with \`extend\`): ` +
            'the service manifest.',
        }),
      ),
      extend: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: MAX_BATCH_TEXT_LENGTH,
          description:
            `A data extension query, as JSON: \`ids\` (at most ${MAX_EXTEND_IDS}) and \`properties\` ` +
            `(\`id\`: ${vocabulary.extendProperties.join(', ')}). By GET or in a form POST.`,
        }),
      ),
    },
    (params, problems): ServiceRequest => {
      if (params.queries !== undefined && params.extend !== undefined) {
        problems.push({ name: 'extend', reason: 'is not taken with queries: one or the other' });
        return { kind: 'manifest' };
      }
      if (params.queries !== undefined) {
        return { kind: 'batch', queries: readQueryBatch(params.queries, vocabulary, problems) };
      }
      if (params.extend !== undefined) {
        return { kind: 'extend', extend: readExtendQuery(params.extend, vocabulary, problems) };
      }
      return { kind: 'manifest' };
    },
  );
}

export interface SuggestParams {
  prefix: string;
  cursor: number;
  limit: number;
  /** The type asked for; suggestions of another type than the service's are none. */
  type?: string;
}

/**
 * A suggest service's parameters (entity, property or type): what was typed, how many to skip and to give, and the
 * type and strictness clients such as OpenRefine may add.
 */
export const reconcileSuggestQuery = declareQuery(
  {
    prefix: Type.String({
      minLength: 1,
      maxLength: MAX_SUGGEST_PREFIX_LENGTH,
      description: `What the user has typed so far (1 to ${MAX_SUGGEST_PREFIX_LENGTH} characters).`,
    }),
    cursor: withDefault(
      Type.Integer({
        minimum: 0,
        maximum: MAX_SUGGEST_CURSOR,
        description: `How many suggestions to skip (0 to ${MAX_SUGGEST_CURSOR}).`,
      }),
      0,
    ),
    limit: withDefault(
      Type.Integer({
        minimum: 1,
        maximum: MAX_CANDIDATES,
        description: `How many suggestions (1 to ${MAX_CANDIDATES}).`,
      }),
      SUGGEST_PAGE,
    ),
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Only suggestions of this type (the service has one; another has none).',
      }),
    ),
    type_strict: Type.Optional(
      Type.Union([Type.Literal('any'), Type.Literal('should'), Type.Literal('all')], {
        description: 'How strictly the type applies; taken and ignored: the service has one type.',
      }),
    ),
  },
  (params): SuggestParams => ({
    prefix: params.prefix,
    cursor: params.cursor,
    limit: params.limit,
    ...(params.type !== undefined ? { type: params.type } : {}),
  }),
);

/** The preview of one entity: its id. */
export const reconcilePreviewQuery = declareQuery(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The entity’s id, as the candidates give it.',
    }),
  },
  (params) => ({ id: params.id }),
);

/** The property proposal: the type the properties are for, and how many. */
export const reconcilePropertiesQuery = declareQuery(
  {
    type: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'The type the properties are proposed for.' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'How many properties at most (1 to 100).' }),
    ),
  },
  (params) => ({ ...(params.type !== undefined ? { type: params.type } : {}), limit: params.limit ?? 100 }),
);
