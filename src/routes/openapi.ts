// GET /api/v1/openapi.json: the document, built once per app (it depends only on configuration).
import { Router } from '@koa/router';
import { lookUpAnswer } from '../cache/cachedAnswers.js';
import type { ResponseCache } from '../cache/responseCache.js';
import { buildOpenApiSpec, type OpenApiOptions } from '../openapi/spec.js';
import { refuseAnyParameter } from '../params/querystring.js';

export const OPENAPI_PATH = '/api/v1/openapi.json';

/** `cache`: the response cache, which then holds the document's bytes and their encodings (nothing per request). */
export function openApiRouter(options: OpenApiOptions = {}, cache?: ResponseCache): Router {
  // Frozen: conditionalGet serializes and hashes it once, not on every request (1.7 ms of CPU each before).
  const document = Object.freeze(buildOpenApiSpec(options));
  const router = new Router();
  router.get(OPENAPI_PATH, (ctx) => {
    // Like every /api/v1 endpoint, it names an unknown parameter in a 400 (it takes none, not even blank).
    refuseAnyParameter(ctx.querystring);
    if (lookUpAnswer(ctx, cache, 'openapi', '')) return;
    ctx.body = document;
  });
  return router;
}
