// GET /api/v1/openapi.json: the document, built and serialized once per app (it depends only on configuration).
import { Router } from '@koa/router';
import { apiPath } from '../http/apiPath.js';
import { buildOpenApiSpec, type OpenApiOptions } from '../openapi/spec.js';
import { refuseAnyParameter } from '../params/querystring.js';
import type { AnswerFn } from '../wire/answers.js';
import { jsonRepresentation } from '../wire/representation.js';

export const OPENAPI_PATH = apiPath('/openapi.json');

export function openApiRouter(options: OpenApiOptions, answer: AnswerFn): Router {
  // One representation: serialized and hashed once, not on every request (1.7 ms of CPU each before).
  const document = jsonRepresentation(buildOpenApiSpec(options));
  const router = new Router();
  router.get(OPENAPI_PATH, (ctx) => {
    // Like every /api/v1 endpoint, it names an unknown parameter in a 400 (it takes none, not even blank).
    refuseAnyParameter(ctx.querystring);
    return answer(ctx, { route: 'openapi', normalized: '' }, () => document);
  });
  return router;
}
