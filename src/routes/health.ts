// /health/live and /health/ready: for orchestrators and load balancers, never rate limited, never cached.
import { Router } from '@koa/router';
import { ServiceUnavailableError } from '../http/problem.js';
import type { ClientRateLimiter } from '../rateLimit/index.js';
import type { Admission } from '../search/admission.js';
import type { SearchGateway } from '../search/gateway.js';
import type { ServedStateWatcher } from '../search/servedStateWatcher.js';

export interface HealthRouterDeps {
  search: SearchGateway;
  limiter: ClientRateLimiter;
  /** The change log's head and sync's state: a held-back sync is reported (the index is still served whole). */
  servedState?: ServedStateWatcher;
  /** Admission control: shedding load is reported, never a reason to be unready. */
  admission?: Admission;
}

/** Seconds a balancer is asked to wait before checking an unready instance again. */
const NOT_READY_RETRY_AFTER_SECONDS = 5;

export class NotReadyError extends ServiceUnavailableError {
  constructor(checks: Record<string, unknown>, detail: string) {
    super(detail, NOT_READY_RETRY_AFTER_SECONDS);
    Object.assign(this.extensions, checks);
  }
}

/** What readiness says of sync: "held" while it holds back a mass removal (the site still serves everything). */
async function syncCheck(servedState: ServedStateWatcher | undefined): Promise<Record<string, unknown>> {
  if (!servedState) return { status: 'unknown', detail: null };
  try {
    const { syncGuard, highWaterMark, head } = await servedState.fresh();
    const common = { high_water_mark: highWaterMark, changes_head: head ? head.seq : null };
    if (!syncGuard) return { status: 'ok', ...common, detail: null };
    return {
      status: 'held',
      ...common,
      held_since: syncGuard.since,
      removals: syncGuard.removals,
      live: syncGuard.live,
      max_removed: syncGuard.max_removed,
      detail:
        `sync is holding back a run that would remove ${syncGuard.removals} of ${syncGuard.live} live PPAs ` +
        `(more than --max-removed ${syncGuard.max_removed}); nothing of it is applied and the index is served whole ` +
        'until the source is repaired or an operator runs sync with --max-removed',
    };
  } catch {
    return { status: 'unknown', detail: 'the change log and sync state could not be read' };
  }
}

/** What readiness says of load: "shedding" while searches are being refused for overload (still ready). */
function loadCheck(admission: Admission | undefined): Record<string, unknown> {
  if (!admission) return { status: 'unknown', detail: null };
  const state = admission.state();
  return {
    status: state.shedding ? 'shedding' : 'ok',
    limit: state.limit,
    in_flight: state.inFlight,
    queued: state.queued,
    refused_total: state.refused,
    detail: state.shedding
      ? 'at capacity: searches beyond what Elasticsearch can take now are refused at once (503 overloaded); ' +
        'cached answers are served as usual'
      : null,
  };
}

export function healthRouter({ search, limiter, servedState, admission }: HealthRouterDeps): Router {
  const router = new Router({ prefix: '/health' });

  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });

  router.get('/live', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/ready', async (ctx) => {
    const [readiness, sync] = await Promise.all([search.ready(), syncCheck(servedState)]);
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
      // Held back (a mass removal refused) still serves: reported, not a reason to be unready, since an unready
      // fleet would take down the very index the guard keeps whole.
      sync,
      // Shedding (refusing searches beyond capacity) still serves: reported, not a reason to be unready, since
      // taking a busy instance out of rotation moves its load onto the others.
      load: loadCheck(admission),
    };
    if (!ready) throw new NotReadyError(checks, `Elasticsearch: ${readiness.detail ?? 'not ready'}.`);
    ctx.body = { status: 'ready', ...checks };
  });

  return router;
}
