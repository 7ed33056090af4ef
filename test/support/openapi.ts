// Checks real answers against the OpenAPI document the API serves: the body against the schema documented for
// its path, method and status (ajv, JSON Schema 2020-12), and optionally that every documented header is sent.
// Any test that sees a response can call it, so the document cannot drift from what the API does.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { AssertionError } from 'node:assert';
import {
  buildOpenApiSpec,
  type OpenApiOperation,
  type OpenApiResponse,
} from '../../src/operations/openApi.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const openApiDocument = buildOpenApiSpec();

const DOCUMENT_ID = 'urn:ppa-search-api:openapi';
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema({ ...openApiDocument, $id: DOCUMENT_ID });
const validators = new Map<string, ValidateFunction>();

const pointer = (...parts: string[]) =>
  parts.map((part) => `/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

// Literal templates first, so /api/v1/ppas/statistics is never taken for /api/v1/ppas/{slug}.
const templates = Object.keys(openApiDocument.paths)
  .map((template) => ({
    template,
    params: (template.match(/\{[^}]+\}/g) ?? []).length,
    pattern: new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`,
    ),
  }))
  .sort((a, b) => a.params - b.params);

/** The path template of the document that a concrete path (query allowed) falls under. */
export function openApiPathFor(path: string): string | undefined {
  const bare = path.replace(/[?#].*$/, '');
  return templates.find(({ pattern }) => pattern.test(bare))?.template;
}

export interface OpenApiCheckOptions {
  /** Default GET. */
  method?: string;
  /** When given: every header the document lists for this answer must be present. */
  headers?: Headers | Record<string, string | string[] | undefined>;
  /** The response's Content-Type, to pick the documented media type (default: the only/first one). */
  contentType?: string | null;
}

export function documentedResponse(path: string, status: number, method = 'get'): OpenApiResponse {
  const template = openApiPathFor(path);
  if (!template) throw new AssertionError({ message: `OpenAPI: no path of the document matches ${path}` });
  const operations = openApiDocument.paths[template] ?? {};
  // A method the API does not serve has no operation: its 405 is documented on the path's GET.
  const served = method.toLowerCase() in operations;
  const operation = (
    served ? operations[method.toLowerCase()] : status === 405 ? operations.get : undefined
  ) as OpenApiOperation | undefined;
  if (!operation)
    throw new AssertionError({ message: `OpenAPI: ${method.toUpperCase()} ${template} is not documented` });
  const response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response) {
    throw new AssertionError({
      message: `OpenAPI: ${method.toUpperCase()} ${template} does not document status ${status} (has ${Object.keys(operation.responses).join(', ')})`,
    });
  }
  return response;
}

/** Throws an AssertionError when `body` (and `headers`, if given) is not what the document says for it. */
export function assertMatchesOpenApi(
  path: string,
  status: number,
  body: unknown,
  options: OpenApiCheckOptions = {},
): void {
  const method = (options.method ?? 'get').toLowerCase();
  const template = openApiPathFor(path) as string;
  const response = documentedResponse(path, status, method);
  const where = `${method.toUpperCase()} ${path} → ${status}`;

  if (options.headers) {
    const has = (name: string) =>
      options.headers instanceof Headers
        ? options.headers.has(name)
        : Object.keys(options.headers ?? {}).some((key) => key.toLowerCase() === name.toLowerCase());
    const missing = Object.keys(response.headers ?? {}).filter((name) => !has(name));
    if (missing.length > 0) {
      throw new AssertionError({
        message: `OpenAPI: ${where} lacks documented headers ${missing.join(', ')}`,
      });
    }
  }

  const media = Object.keys(response.content ?? {});
  if (media.length === 0) {
    if (body !== undefined && body !== null && body !== '') {
      throw new AssertionError({ message: `OpenAPI: ${where} documents no body but one was sent` });
    }
    return;
  }
  const wanted = options.contentType?.split(';')[0]?.trim();
  const mediaType = wanted ? media.find((type) => type === wanted) : media[0];
  if (!mediaType) {
    throw new AssertionError({
      message: `OpenAPI: ${where} is documented as ${media.join(', ')}, not ${wanted}`,
    });
  }
  const documentedMethod = method in (openApiDocument.paths[template] ?? {}) ? method : 'get';
  const key = pointer(
    'paths',
    template,
    documentedMethod,
    'responses',
    String(status),
    'content',
    mediaType,
    'schema',
  );
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${key}` });
    validators.set(key, validate);
  }
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 10)
      .map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`)
      .join('\n  ');
    throw new AssertionError({
      message: `OpenAPI: the body of ${where} does not match ${mediaType} schema:\n  ${errors}\nbody: ${JSON.stringify(body).slice(0, 600)}`,
    });
  }
}
