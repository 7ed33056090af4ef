// The API reads, never writes: on a path some route answers, any method but GET, HEAD and OPTIONS is a 405, except
// POST where a route takes it (the reconciliation services' form POSTs, which read too). Unknown paths stay 404
// whatever the method (nothing there to allow).
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { ALLOWED_METHODS, FORM_METHODS, MethodNotAllowedError } from './problem.js';

/** The methods a path takes: the read methods, and POST where one of the routers takes it. */
export function allowedMethods(routers: readonly Router[], path: string): string {
  return routers.some((router) => router.match(path, 'POST').route) ? FORM_METHODS : ALLOWED_METHODS;
}

export function onlyReadMethods(routers: readonly Router[]): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return next();
    if (ctx.method === 'POST' && routers.some((router) => router.match(ctx.path, 'POST').route))
      return next();
    if (routers.some((router) => router.match(ctx.path, 'GET').route)) {
      throw new MethodNotAllowedError(ctx.method, allowedMethods(routers, ctx.path));
    }
    await next();
  };
}
