// /health/live and /health/ready: for orchestrators and load balancers, never rate limited, never cached.
import { Router } from '@koa/router';
import { ServiceUnavailableError } from '../http/problem.js';
import type { ClientRateLimiter } from '../rateLimit/index.js';
import type { SearchGateway } from '../search/gateway.js';

export interface HealthRouterDeps {
  search: SearchGateway;
  limiter: ClientRateLimiter;
}

/** Seconds a balancer is asked to wait before checking an unready instance again. */
const NOT_READY_RETRY_AFTER_SECONDS = 5;

export class NotReadyError extends ServiceUnavailableError {
  constructor(checks: Record<string, unknown>, detail: string) {
    super(detail, NOT_READY_RETRY_AFTER_SECONDS);
    Object.assign(this.extensions, checks);
  }
}

export function healthRouter({ search, limiter }: HealthRouterDeps): Router {
  const router = new Router({ prefix: '/health' });

  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });

  router.get('/live', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/ready', async (ctx) => {
    const readiness = await search.ready();
    const ready = readiness.cluster && readiness.alias;
    const health = limiter.health();
    const checks = {
      elasticsearch: {
        status: ready ? 'ok' : 'down',
        cluster: readiness.cluster,
        alias: readiness.alias,
        detail: readiness.detail ?? null,
      },
      // Degraded (Redis away, in-memory limits) still serves: it is reported, not a reason to be unready.
      rate_limit: { status: health.status, store: health.store, detail: health.detail ?? null },
    };
    if (!ready) throw new NotReadyError(checks, `Elasticsearch: ${readiness.detail ?? 'not ready'}.`);
    ctx.body = { status: 'ready', ...checks };
  });

  return router;
}
