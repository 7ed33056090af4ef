// Where in the API a change of the OpenAPI document is, read from its path in the document (as api-smart-diff gives
// it, with the $refs resolved): the operation, the part of it (a parameter, a response, a field of a response body),
// the schema keyword that changed, and the names a CHANGELOG entry may give it by.
export type DocumentPath = readonly (string | number)[];

export interface DiffLocation {
  /** `GET /api/v1/ppas`. */
  operation: string;
  /** The operation's path alone: `/api/v1/ppas`. */
  path: string;
  /** Which side a client sees the change on: what it sends, what it receives, or the operation itself. */
  side: 'request' | 'response' | 'operation';
  /** The part changed: '' (the operation), "query parameter `per_page`", "response 200 field `data[].developer`". */
  where: string;
  /** The schema keyword changed, and its index in an array keyword: ['maximum'], ['enum', 2], [] (the part itself). */
  keyword: (string | number)[];
  /** The path up to the schema whose keyword changed (where a keyword's whole schema is read). */
  schemaPath: DocumentPath;
  /** The names of what changed: the parameter's, the field's path and its last name, or the operation's path. */
  names: string[];
  /** The field of a body the change is in (`data[]`); '' outside a body's fields. */
  field: string;
}

/** Steps of a schema path that go into a part of the value rather than name a keyword of it. */
const COMBINERS = new Set(['anyOf', 'oneOf', 'allOf']);

/**
 * A schema path split where its keyword starts: the field it leads to (`data[].capacity_mw`: properties and items
 * walked, combiners passed through) and the keyword with what follows it.
 */
export function splitSchemaPath(steps: DocumentPath): {
  field: string;
  fieldSteps: number;
  keyword: (string | number)[];
} {
  let field = '';
  let at = 0;
  while (at < steps.length) {
    const step = steps[at];
    if (step === 'properties' && at + 1 < steps.length) {
      field += `${field ? '.' : ''}${String(steps[at + 1])}`;
      at += 2;
    } else if (step === 'items') {
      field += '[]';
      at += 1;
    } else if (typeof step === 'string' && COMBINERS.has(step) && at + 1 < steps.length) {
      at += 2;
    } else break;
  }
  return { field, fieldSteps: at, keyword: [...steps.slice(at)] };
}

/** The node at `path` in a document (undefined where there is none). */
export function nodeAt(document: unknown, path: DocumentPath): unknown {
  let node = document;
  for (const step of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[step];
  }
  return node;
}

/** Where a change at `documentPath` is; `document`: the merged document (a parameter's name is read there). */
export function locateDiff(documentPath: DocumentPath, document: unknown): DiffLocation | undefined {
  const [root, path, method, ...rest] = documentPath;
  if (root !== 'paths' || typeof path !== 'string' || typeof method !== 'string') return undefined;
  const operation = `${method.toUpperCase()} ${path}`;
  const base = { operation, path, schemaPath: documentPath, field: '' };
  if (rest.length === 0) return { ...base, side: 'operation', where: '', keyword: [], names: [path] };
  const [part, key, ...inside] = rest;
  const partPath = [root, path, method, part!, ...(key === undefined ? [] : [key])];
  if (part === 'parameters' && key !== undefined) {
    const parameter = nodeAt(document, partPath) as { name?: string; in?: string } | undefined;
    const name = parameter?.name ?? String(key);
    return schemaPart(
      { ...base, side: 'request' },
      `${parameter?.in ?? 'a'} parameter`,
      name,
      partPath,
      inside,
    );
  }
  if (part === 'responses' && key !== undefined) return responsePart(base, String(key), partPath, inside);
  if (part === 'requestBody')
    return bodyPart({ ...base, side: 'request' }, 'request body', partPath.slice(0, -1), rest.slice(1));
  return { ...base, side: 'operation', where: rest.join('.'), keyword: [], names: [path] };
}

type LocationBase = Pick<DiffLocation, 'operation' | 'path' | 'side' | 'field'>;

/** A named part with a schema (a parameter, a header): `<kind> \`name\``, or `\`name[].x\`` inside its schema. */
function schemaPart(
  base: LocationBase,
  kind: string,
  name: string,
  partPath: DocumentPath,
  inside: DocumentPath,
): DiffLocation {
  if (inside[0] !== 'schema') {
    return {
      ...base,
      where: `${kind} \`${name}\``,
      keyword: [...inside],
      schemaPath: partPath,
      names: [name],
    };
  }
  const { field, fieldSteps, keyword } = splitSchemaPath(inside.slice(1));
  const shown = field ? `${name}${field.startsWith('[') ? '' : '.'}${field}` : name;
  const schemaPath = [...partPath, 'schema', ...inside.slice(1, 1 + fieldSteps)];
  return { ...base, where: `${kind} \`${shown}\``, keyword, schemaPath, names: [name] };
}

function responsePart(
  base: Pick<DiffLocation, 'operation' | 'path' | 'field'>,
  status: string,
  partPath: DocumentPath,
  inside: DocumentPath,
): DiffLocation {
  const response = { ...base, side: 'response' as const };
  if (inside[0] === 'headers' && inside[1] !== undefined) {
    return schemaPart(
      response,
      `response ${status} header`,
      String(inside[1]),
      [...partPath, 'headers', inside[1]],
      inside.slice(2),
    );
  }
  return bodyPart(response, `response ${status}`, partPath, inside);
}

/** A body (a response's, the request's): its media type, then a field of its schema. */
function bodyPart(
  base: LocationBase,
  label: string,
  partPath: DocumentPath,
  inside: DocumentPath,
): DiffLocation {
  const whole = { ...base, names: [base.path], schemaPath: [...partPath, ...inside] };
  if (inside[0] !== 'content' || inside[1] === undefined)
    return { ...whole, where: label, keyword: [...inside] };
  const media = String(inside[1]);
  const labelled = `${label} (${media})`;
  if (inside[2] !== 'schema') return { ...whole, where: labelled, keyword: inside.slice(2) };
  const { field, fieldSteps, keyword } = splitSchemaPath(inside.slice(3));
  const schemaPath = [...partPath, ...inside.slice(0, 3 + fieldSteps)];
  if (!field) return { ...whole, where: labelled, keyword, schemaPath };
  const last =
    field
      .replace(/\[\]$/, '')
      .split(/[.[\]]+/)
      .filter(Boolean)
      .at(-1) ?? field;
  return {
    ...base,
    field,
    where: `${labelled} field \`${field}\``,
    keyword,
    schemaPath,
    names: [...new Set([field, last])],
  };
}
