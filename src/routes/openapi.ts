// GET /api/v1/openapi.json: the document, built once per app (it depends only on configuration).
import { Router } from '@koa/router';
import { buildOpenApiSpec, type OpenApiOptions } from '../openapi/spec.js';
import { refuseAnyParameter } from '../params/querystring.js';

export const OPENAPI_PATH = '/api/v1/openapi.json';

export function openApiRouter(options: OpenApiOptions = {}): Router {
  const document = buildOpenApiSpec(options);
  const router = new Router();
  router.get(OPENAPI_PATH, (ctx) => {
    // Like every /api/v1 endpoint, it names an unknown parameter in a 400 (it takes none, not even blank).
    refuseAnyParameter(ctx.querystring);
    ctx.body = document;
  });
  return router;
}
