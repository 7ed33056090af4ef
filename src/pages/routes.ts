// The pages people look at: GET / (the explorer) and GET /api/v1/docs (the interactive API reference), and the
// files they load from /assets/. Mounted before the rate limiter: loading a page costs a client nothing, the API
// calls the page then makes count like any other client's.
import { Router } from '@koa/router';
import type { Context } from 'koa';
import { API_PATHS } from '../http/apiPath.js';
import { NotFoundError } from '../http/problem.js';
import { NO_QUERY } from '../params/declare.js';
import type { Asset, PageSet } from '../pages/assets.js';
import { send as sendRepresentation } from '../wire/representation.js';

export const EXPLORE_PATH = '/';

/**
 * What a page may load: its own scripts, styles and images, and calls to this API (same origin); nothing from
 * anywhere else. Swagger UI and Chart.js set element styles from script, hence 'unsafe-inline' for styles only.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// A page is revalidated on every load (its ETag makes that a 304), so a new release shows at once; the assets it
// links carry their content hash in the URL and never change under it.
const PAGE_CACHE_CONTROL = 'no-cache';
const VERSIONED_ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const UNVERSIONED_ASSET_CACHE_CONTROL = 'public, max-age=300';

function send(ctx: Context, asset: Asset, cacheControl: string): void {
  sendRepresentation(ctx, asset, {
    cacheControl,
    headers: { 'Content-Security-Policy': PAGE_CONTENT_SECURITY_POLICY },
  });
}

export function pagesRouter(pages: PageSet): Router {
  const router = new Router();
  router.get(EXPLORE_PATH, (ctx) => send(ctx, pages.explorePage, PAGE_CACHE_CONTROL));
  router.get(API_PATHS.docs, (ctx) => {
    NO_QUERY.parse(ctx.querystring);
    send(ctx, pages.docsPage, PAGE_CACHE_CONTROL);
  });
  router.get('/assets/:name', (ctx) => {
    const asset = pages.assets.get(ctx.params.name ?? '');
    if (!asset) throw new NotFoundError(`No asset named ${JSON.stringify(ctx.params.name)}.`);
    const version = new URLSearchParams(ctx.querystring).get('v');
    const current = version !== null && `"${version}"` === asset.etag;
    const unversioned = asset.imported ? PAGE_CACHE_CONTROL : UNVERSIONED_ASSET_CACHE_CONTROL;
    send(ctx, asset, current ? VERSIONED_ASSET_CACHE_CONTROL : unversioned);
  });
  return router;
}
