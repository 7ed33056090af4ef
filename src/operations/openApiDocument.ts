// GET /api/v1/openapi.json: the document, built from the operations and serialized once per app (src/app.ts).
import { API_PATHS } from '../http/apiPath.js';
import { apiResponses, badRequest, ifNoneMatch, requestIdHeader } from '../openapi/responses.js';
import { NO_QUERY } from '../params/declare.js';
import { Type } from '../wire/bodySchema.js';
import { operation } from './operation.js';

const OpenApiDocumentSchema = Type.Object({
  openapi: Type.String({ pattern: '^3\\.1\\.' }),
  info: Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
  paths: Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
});

export const openApiDocument = operation({
  path: API_PATHS.openApiDocument,
  query: NO_QUERY,
  notHere: 'it takes none',
  doc: {
    operationId: 'openApiDocument',
    tags: ['meta'],
    summary: 'This OpenAPI 3.1 document',
    description: 'Takes no query parameters (any is 400).',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: apiResponses(
      { description: 'The OpenAPI document.', schema: 'OpenApiDocument' },
      { '400': badRequest },
    ),
  },
  schemas: { OpenApiDocument: OpenApiDocumentSchema },
  withoutSearch: true,
  handler:
    (deps) =>
    async ({ answer }) => {
      await answer('', () => deps.openApiDocument);
    },
});
