// Validates the API's OCDS answers the way the Data Review Tool does, and a little more strictly: the vendored OCDS
// 1.1.5 schemas (schemas/ocds/1.1.5/, draft-04, checked with ajv-draft-04) with the project's extension applied as
// OCDS applies one (its release-schema.json and release-package-schema.json merged in as JSON Merge Patches, its
// +documentType.csv added to the codelist), formats included (date-time, uri). Then what the Data Review Tool
// reports beside the schema, each a failure here: a code of an open codelist that the codelist lacks (documentType,
// party roles), a field the schema does not declare, an empty field, a repeated id within an array; and that every
// organization reference names a party of the release by id and name, a party with the role it is referenced in.
// Every problem is one line: `<where>: <what>`.
import type { ValidateFunction } from 'ajv';
import AjvDraft04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { parse as parseCsv } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import {
  addedDocumentTypesCsv,
  extensionReleasePackageSchema,
  extensionReleaseSchema,
} from '../../src/present/ocdsExtension.js';

type Json = Record<string, unknown>;
// Both are CommonJS with a default export; under NodeNext the class sits on `.default`.
const AjvDraft04 = AjvDraft04Module as unknown as typeof AjvDraft04Module.default;
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const OCDS = new URL('../../schemas/ocds/1.1.5/', import.meta.url);
const RELEASE_SCHEMA_ID = 'https://standard.open-contracting.org/schema/1__1__5/release-schema.json';
/** OCDS's own keywords in its schemas: metadata for its tools, nothing to validate. */
const OCDS_KEYWORDS = [
  'codelist',
  'openCodelist',
  'deprecated',
  'wholeListMerge',
  'omitWhenMerged',
  'versionId',
];
/** Where an organization reference must point: the path in a release, and the role its party must have. */
const REFERENCE_ROLES: [string, string][] = [
  ['buyer', 'buyer'],
  ['tender/procuringEntity', 'procuringEntity'],
  ['awards/*/suppliers/*', 'supplier'],
];

const readJson = (name: string): Json => JSON.parse(readFileSync(new URL(name, OCDS), 'utf8')) as Json;
const codesOf = (csv: string): string[] =>
  (parseCsv(csv, { columns: true }) as { Code: string }[]).map((row) => row.Code);

/** RFC 7396 JSON Merge Patch, as OCDS applies an extension's schema patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const merged: Json =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Json) } : {};
  for (const [key, value] of Object.entries(patch as Json)) {
    if (value === null) delete merged[key];
    else merged[key] = mergePatch(merged[key], value);
  }
  return merged;
}

export interface OcdsExtensionFiles {
  releaseSchema: Json;
  releasePackageSchema: Json;
  /** +documentType.csv as served. */
  documentTypes: string;
}

/** The extension as the API serves it. */
export const servedExtension = (): OcdsExtensionFiles => ({
  releaseSchema: extensionReleaseSchema(),
  releasePackageSchema: extensionReleasePackageSchema(),
  documentTypes: addedDocumentTypesCsv(),
});

export interface OcdsValidator {
  recordPackage(body: unknown): string[];
  releasePackage(body: unknown): string[];
  /** One release alone (a line of the export's JSON Lines). */
  release(release: unknown, where?: string): string[];
}

export function createOcdsValidator(extension: OcdsExtensionFiles = servedExtension()): OcdsValidator {
  const releaseSchema = mergePatch(readJson('release-schema.json'), extension.releaseSchema) as Json;
  const releasePackageSchema = mergePatch(
    readJson('release-package-schema.json'),
    extension.releasePackageSchema,
  ) as Json;
  const recordPackageSchema = readJson('record-package-schema.json');
  const ajv = new AjvDraft04({ allErrors: true, strictTypes: false });
  ajv.addVocabulary(OCDS_KEYWORDS);
  addFormats(ajv);
  ajv.addSchema(releaseSchema);
  ajv.addSchema(readJson('versioned-release-validation-schema.json'));
  const compile = (schema: Json) => ajv.compile(schema);
  const schemas = {
    release: ajv.getSchema(RELEASE_SCHEMA_ID) as ValidateFunction,
    releasePackage: compile(releasePackageSchema),
    recordPackage: compile(recordPackageSchema),
  };
  const codelists = codelistsOf(extension);
  const beyondSchema = (release: unknown, where: string) =>
    walk(release, releaseSchema, releaseSchema, where, codelists).concat(references(release, where));

  return {
    release(value, where = '') {
      const release = sent(value);
      return [...ajvProblems(schemas.release, release, where), ...beyondSchema(release, where)];
    },
    releasePackage(value) {
      const body = sent(value);
      const problems = ajvProblems(schemas.releasePackage, body, '');
      const { releases, ...head } = body as { releases?: unknown[] };
      problems.push(...walk(head, releasePackageSchema, releasePackageSchema, '', codelists));
      (releases ?? []).forEach((release, i) => problems.push(...beyondSchema(release, `releases/${i}`)));
      problems.push(...repeatedReleases(releases ?? []));
      return problems;
    },
    recordPackage(value) {
      const body = sent(value);
      const problems = ajvProblems(schemas.recordPackage, body, '');
      const { records, ...head } = body as { records?: Json[] };
      problems.push(...walk(head, recordPackageSchema, recordPackageSchema, '', codelists));
      (records ?? []).forEach((record, r) => {
        const { releases, compiledRelease, ...rest } = record;
        const recordSchema = (recordPackageSchema.definitions as Json).record as Json;
        problems.push(...walk(rest, recordSchema, recordPackageSchema, `records/${r}`, codelists));
        (releases as unknown[]).forEach((release, i) =>
          problems.push(...beyondSchema(release, `records/${r}/releases/${i}`)),
        );
        problems.push(...beyondSchema(compiledRelease, `records/${r}/compiledRelease`));
      });
      return problems;
    },
  };
}

/** The value as the API sends it: JSON, which leaves out what is undefined. */
const sent = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

function ajvProblems(validate: ValidateFunction, value: unknown, where: string): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${where}${error.instancePath || '/'}: ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
  );
}

/** Each codelist's codes: the vendored core ones, and for documentType the extension's additions. */
function codelistsOf(extension: OcdsExtensionFiles): Map<string, Set<string>> {
  const codelists = new Map<string, Set<string>>();
  for (const name of [
    'documentType',
    'partyRole',
    'releaseTag',
    'initiationType',
    'method',
    'awardStatus',
    'contractStatus',
  ]) {
    const codes = codesOf(readFileSync(new URL(`codelists/${name}.csv`, OCDS), 'utf8'));
    codelists.set(`${name}.csv`, new Set(codes));
  }
  for (const code of codesOf(extension.documentTypes)) codelists.get('documentType.csv')!.add(code);
  return codelists;
}

/** `#/definitions/X` of the schema the walk is in. */
function resolved(schema: Json, root: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  return ref
    .slice(2)
    .split('/')
    .reduce<Json>((node, part) => node[part] as Json, root);
}

/** The value against its schema, beyond what ajv checks: codes, undeclared and empty fields, repeated ids. */
function walk(
  value: unknown,
  schemaNode: Json,
  root: Json,
  where: string,
  codelists: Map<string, Set<string>>,
): string[] {
  const schema = resolved(schemaNode, root);
  const problems: string[] = [];
  const at = where || '/';
  if (value === null || value === '' || (typeof value === 'object' && Object.keys(value).length === 0)) {
    return [`${at}: empty field (${JSON.stringify(value)}): leave it out`];
  }
  if (typeof schema.codelist === 'string') {
    const codes = codelists.get(schema.codelist);
    if (!codes) return [`${at}: no codelist ${schema.codelist} to check against`];
    for (const code of Array.isArray(value) ? value : [value]) {
      if (!codes.has(String(code)))
        problems.push(`${at}: ${JSON.stringify(code)} is not in ${schema.codelist}`);
    }
  }
  if (Array.isArray(value)) {
    const items = (schema.items ?? {}) as Json;
    const ids = value.flatMap((item) =>
      item && typeof item === 'object' && 'id' in item ? [String((item as Json).id)] : [],
    );
    if (new Set(ids).size !== ids.length) problems.push(`${at}: repeated id values ${JSON.stringify(ids)}`);
    value.forEach((item, i) => problems.push(...walk(item, items, root, `${where}/${i}`, codelists)));
    return problems;
  }
  if (typeof value !== 'object') return problems;
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const patterns = Object.keys((schema.patternProperties ?? {}) as Json).map(
    (pattern) => new RegExp(pattern, 'u'),
  );
  for (const [key, item] of Object.entries(value as Json)) {
    const property = properties[key];
    if (property) problems.push(...walk(item, property, root, `${where}/${key}`, codelists));
    else if (!patterns.some((pattern) => pattern.test(key)))
      problems.push(`${where}/${key}: additional field the schema and the extension do not declare`);
  }
  return problems;
}

/** Every organization reference names a party of the release, by id and name, with the role it stands for. */
function references(release: unknown, where: string): string[] {
  const { parties = [] } = release as { parties?: { id: string; name?: string; roles?: string[] }[] };
  const problems: string[] = [];
  for (const [path, role] of REFERENCE_ROLES) {
    for (const [at, reference] of valuesAt(release, path.split('/'), where)) {
      const { id, name } = reference as { id?: string; name?: string };
      const party = parties.find((candidate) => candidate.id === id);
      if (!party) problems.push(`${at}: references party ${JSON.stringify(id)}, which is not in parties`);
      else if (party.name !== name)
        problems.push(`${at}: names ${JSON.stringify(name)}, party ${id} is ${JSON.stringify(party.name)}`);
      else if (!party.roles?.includes(role)) problems.push(`${at}: party ${id} lacks the role ${role}`);
    }
  }
  return problems;
}

function valuesAt(value: unknown, path: string[], where: string): [string, unknown][] {
  if (value === undefined || value === null) return [];
  if (path.length === 0) return [[where, value]];
  const [head, ...rest] = path;
  if (head === '*') {
    return Array.isArray(value) ? value.flatMap((item, i) => valuesAt(item, rest, `${where}/${i}`)) : [];
  }
  return valuesAt((value as Json)[head!], rest, `${where}/${head}`);
}

/** A release package holds each release (ocid and id) once. */
function repeatedReleases(releases: unknown[]): string[] {
  const keys = releases.map((release) => {
    const { ocid, id } = release as { ocid?: string; id?: string };
    return `${ocid} ${id}`;
  });
  return new Set(keys).size === keys.length ? [] : ['releases: a release (ocid and id) is repeated'];
}
