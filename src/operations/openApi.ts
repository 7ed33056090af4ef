// The OpenAPI 3.1 document of the API, built from the list of operations (./index.ts): each gives its path, its
// documentation, its query's parameters and the body schemas it names; HEAD is documented from GET. A test keeps it true against real
// answers (test/integration/api-openapi.test.ts).
import { RELEASE } from '../../indexContract/contract.js';
import { ALLOWED_METHODS } from '../http/problem.js';
import {
  ProblemSchema,
  RESPONSE_HEADERS,
  type OpenApiOperation,
  type OpenApiResponse,
} from '../openapi/responses.js';
import { OPERATIONS } from './catalog.js';
import type { Operation } from './operation.js';

export type { OpenApiOperation, OpenApiResponse };

export type OpenApiSpec = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Record<string, unknown>>; [kind: string]: unknown };
};

export interface OpenApiOptions {
  /** PUBLIC_BASE_URL: the document's server; unset: the server is the document's own origin ("/"). */
  publicBaseUrl?: string;
  /** The document's version; default: this release (package.json's). */
  version?: string;
}

/** The GET operation: its path's parameters, then its query's, then the request headers it reads. */
function getOf({ doc, query }: Operation): OpenApiOperation {
  const declared = (doc.parameters ?? []) as { in?: string }[];
  return {
    ...doc,
    parameters: [
      ...declared.filter((parameter) => parameter.in === 'path'),
      ...(query?.parameters ?? []),
      ...declared.filter((parameter) => parameter.in !== 'path'),
    ],
  };
}

/** HEAD is GET without the body: same parameters, same statuses and headers. */
function withHead(get: OpenApiOperation): Record<string, OpenApiOperation> {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, { content: _content, ...rest }]) => [status, rest]),
  );
  return {
    get,
    head: {
      ...get,
      operationId: `${get.operationId}Head`,
      summary: `${String(get.summary)} (headers only)`,
      responses,
    },
  };
}

/** The body schemas the operations name, in their order, and the problem body every error answer has. */
function componentSchemas(operations: readonly Operation[]): Record<string, Record<string, unknown>> {
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) Object.assign(schemas, operation.schemas ?? {});
  return { ...schemas, Problem: ProblemSchema as unknown as Record<string, unknown> };
}

export function buildOpenApiSpec(options: OpenApiOptions = {}): OpenApiSpec {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'PPA search API',
      version: options.version ?? RELEASE,
      summary: 'Read-only search over published Power Purchase Agreements.',
      description: [
        'Public, read-only JSON API; no credentials are read or required.',
        `Methods: ${ALLOWED_METHODS} (OPTIONS answers CORS preflight, 204, never rate limited), and POST on the`,
        'reconciliation services’ roots (a form body, read as a query string); any other method on a known path is 405. Every response carries `Access-Control-Allow-Origin: *`, `X-Content-Type-Options: nosniff`',
        'and `X-Request-Id`. Errors are `application/problem+json` (RFC 9457).',
        '',
        'Rate limit: every `/api/v1` request (304s and errors included) counts against a per-client-IP quota',
        '(default 60 per 60 s, shared by all instances); `/health/*` is not limited.',
      ].join('\n'),
      // The interactive reference is the contact point; its URL is absolute only when the public base is known.
      contact: {
        name: 'PPA search API reference',
        ...(options.publicBaseUrl ? { url: `${options.publicBaseUrl.replace(/\/+$/, '')}/api/v1/docs` } : {}),
      },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // A public API: no operation needs credentials (linters ask that this be said, not left out).
    security: [],
    servers: [{ url: options.publicBaseUrl ?? '/' }],
    tags: [
      { name: 'ppas', description: 'Published Power Purchase Agreements.' },
      {
        name: 'parties',
        description:
          'The counterparties of the PPAs (developers and consortium members, offtakers, procuring entities) as entities.',
      },
      {
        name: 'ocds',
        description:
          'The PPAs in the Open Contracting Data Standard (OCDS 1.1.5): record and release packages, and the ' +
          'project’s extension.',
      },
      {
        name: 'reconcile',
        description:
          'The reconciliation services (W3C Reconciliation Service API 0.2) that OpenRefine matches a column ' +
          'against: their roots, the only paths that also take POST (a form body: it reads, never writes).',
      },
      { name: 'meta', description: 'This document and the health checks.' },
    ],
    paths: Object.fromEntries(
      OPERATIONS.map((operation) => [
        operation.path,
        { ...withHead(getOf(operation)), ...(operation.form ? { post: operation.form.doc } : {}) },
      ]),
    ),
    components: {
      schemas: componentSchemas(OPERATIONS),
      headers: RESPONSE_HEADERS,
    },
  };
}
