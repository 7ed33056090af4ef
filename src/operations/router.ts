// The router of a list of operations: GET (and so HEAD) on each path, POST where it takes a form, in the list's order. A name that another
// operation takes is refused with where it belongs, derived from the list (no hand-kept "not a parameter" lists).
import { Router } from '@koa/router';
import type { Operation, OperationDeps } from './operation.js';

/** `/api/v1/ppas/{slug}` → `/api/v1/ppas/:slug`. */
export const routePath = (template: string): string => template.replace(/\{([A-Za-z_]+)\}/g, ':$1');

/** Why each parameter of the other operations is refused by `operation`, by name. */
export function unknownReasons(
  operation: Operation,
  operations: readonly Operation[],
): Record<string, string> {
  const own = new Set(operation.query?.names ?? []);
  const reason = `is not a parameter of GET ${operation.path}${operation.notHere ? ` (${operation.notHere})` : ''}`;
  const reasons: Record<string, string> = {};
  for (const other of operations) {
    for (const name of other.query?.names ?? []) if (!own.has(name)) reasons[name] = reason;
  }
  return reasons;
}

export function operationsRouter(operations: readonly Operation[], deps: OperationDeps): Router {
  const router = new Router();
  for (const operation of operations) {
    const handler = operation.handler(deps, unknownReasons(operation, operations));
    router.get(routePath(operation.path), handler);
    if (operation.form) router.post(routePath(operation.path), handler);
  }
  return router;
}
