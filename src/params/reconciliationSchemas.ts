// The W3C Reconciliation Service API 0.2's own JSON schemas (schemas/reconciliation/0.2/, vendored unchanged): the
// API checks the query batches and data extension queries it is sent against them, and the tests check every answer
// of the services against them. Their `$schema` ("http://json-schema.org/schema#") is draft-07 to ajv's default class.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { projectFile } from '../../indexContract/projectFile.js';

const SCHEMAS_DIRECTORY = projectFile('schemas/reconciliation/0.2/');

/** Where the 0.2 schemas are published: each schema's `$id` (the property proposal's still says `draft`). */
const ID_BASE = 'https://reconciliation-api.github.io/specs/0.2/schemas/';

/** The bodies the specification defines a schema for, by the name of its `$id`. */
export const RECONCILIATION_SCHEMAS = {
  manifest: `${ID_BASE}manifest.json`,
  queryBatch: `${ID_BASE}reconciliation-query.json`,
  resultBatch: `${ID_BASE}reconciliation-result-batch.json`,
  suggestEntities: `${ID_BASE}suggest-entities-response.json`,
  suggestProperties: `${ID_BASE}suggest-properties-response.json`,
  suggestTypes: `${ID_BASE}suggest-types-response.json`,
  extendQuery: `${ID_BASE}data-extension-query.json`,
  extendResponse: `${ID_BASE}data-extension-response.json`,
  propertyProposal:
    'https://reconciliation-api.github.io/specs/draft/schemas/data-extension-property-proposal.json',
} as const;

export type ReconciliationSchemaName = keyof typeof RECONCILIATION_SCHEMAS;

// ajv-formats is CommonJS: its default export is the plugin under Node's ESM interop.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** Every schema of the folder, compiled once by one ajv (they refer to each other by `$id`). */
function compileAll(): Readonly<Record<ReconciliationSchemaName, ValidateFunction>> {
  // strict off: the published schemas carry keywords ajv's strict mode questions (`definitions` under a property).
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  const directory = fileURLToPath(SCHEMAS_DIRECTORY);
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(`${directory}${file}`, 'utf8')) as object);
  }
  return Object.fromEntries(
    Object.entries(RECONCILIATION_SCHEMAS).map(([name, id]) => {
      const validate = ajv.getSchema(id);
      if (!validate) throw new Error(`no reconciliation schema ${id} in ${directory}`);
      return [name, validate];
    }),
  ) as Record<ReconciliationSchemaName, ValidateFunction>;
}

export const RECONCILIATION_VALIDATORS = compileAll();

/** The problems of `body` against the specification's schema `name` ([] when it is valid), one line each. */
export function reconciliationProblems(name: ReconciliationSchemaName, body: unknown): string[] {
  const validate = RECONCILIATION_VALIDATORS[name];
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
  );
}
