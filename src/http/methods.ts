// The API is read-only: on a path some route answers, any method but GET, HEAD and OPTIONS is a 405.
// Unknown paths stay 404 whatever the method (nothing there to allow).
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { MethodNotAllowedError } from './problem.js';

export function onlyReadMethods(routers: readonly Router[]): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS') return next();
    if (routers.some((router) => router.match(ctx.path, 'GET').route)) {
      throw new MethodNotAllowedError(ctx.method);
    }
    await next();
  };
}
