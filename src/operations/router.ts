// The router of a list of operations: GET (and so HEAD) on each path, in the list's order.
import { Router } from '@koa/router';
import type { Operation, OperationDeps } from './operation.js';

/** `/api/v1/ppas/{slug}` → `/api/v1/ppas/:slug`. */
export const routePath = (template: string): string => template.replace(/\{([A-Za-z_]+)\}/g, ':$1');

export function operationsRouter(operations: readonly Operation[], deps: OperationDeps): Router {
  const router = new Router();
  for (const { path, handler } of operations) router.get(routePath(path), handler(deps));
  return router;
}
