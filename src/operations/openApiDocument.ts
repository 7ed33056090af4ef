// GET /api/v1/openapi.json: the document, built from the operations and serialized once per app (src/app.ts).
import { apiPath } from '../http/apiPath.js';
import { apiResponses, badRequest, ifNoneMatch, requestIdHeader } from '../openapi/responses.js';
import { refuseAnyParameter } from '../params/querystring.js';
import { Type } from '../present/bodySchema.js';
import { operation } from './operation.js';

export const OPENAPI_PATH = apiPath('/openapi.json');

const OpenApiDocumentSchema = Type.Object({
  openapi: Type.String({ pattern: '^3\\.1\\.' }),
  info: Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
  paths: Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
});

export const openApiDocument = operation({
  path: OPENAPI_PATH,
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
  handler: (deps) => (ctx) => {
    // Like every /api/v1 endpoint, it names an unknown parameter in a 400 (it takes none, not even blank).
    refuseAnyParameter(ctx.querystring);
    return deps.answer(ctx, { route: 'openapi', normalized: '' }, () => deps.openApiDocument);
  },
});
