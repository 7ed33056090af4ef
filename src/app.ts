// createApp: the Koa application from its parts (no globals: tests build as many as they need).
//
// Middleware, outermost first:
//   requestId → serverSpans (tracing on: the request's span, whose context all below run in) → requestLog
//   → securityHeaders → cors (answers OPTIONS) → problemResponses (errors → problem+json)
//   → compression (streamed exports and problems; every other answer is a representation, src/wire/)
//   → /health/* routes and the pages with their assets (before the limiter: never counted)
//   → rateLimit (only /api/v1/*, any case; sets its headers before anything below can throw)
//   → boundedQueryString (414 past 2,048 bytes; after the limiter, so refusals count)
//   → onlyReadMethods (405 on known paths) → abandonedSearchesCancelled (a client gone cancels its searches)
//   → /api/v1 routes, which answer through src/wire/answers.ts (the response cache, ETag, 304, encodings; after
//   the limiter, so every cache hit is counted). Their searches pass the gateway's admission control: a cached
//   answer never waits for it, and what is not admitted is refused at once (503 overloaded, counted, not logged).
import type { Tracer } from '@opentelemetry/api';
import Koa, { type Middleware } from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { ExportSlots } from './export/exportSlots.js';
import type { Metrics } from './metrics/metrics.js';
import { isApiPath } from './http/apiPath.js';
import { compression } from './http/compression.js';
import { cors } from './http/cors.js';
import { allowedMethods, onlyReadMethods } from './http/methods.js';
import { problemResponses } from './http/problemResponses.js';
import { boundedQueryString } from './http/queryLength.js';
import { requestId } from './http/requestId.js';
import { requestLog } from './http/requestLog.js';
import { securityHeaders } from './http/securityHeaders.js';
import { serverSpans } from './http/serverSpans.js';
import {
  applyProxyTrust,
  rateLimit,
  RATE_LIMIT_HEADER_NAMES,
  type ClientRateLimiter,
} from './rateLimit/index.js';
import { buildOpenApiSpec } from './operations/openApi.js';
import { OPERATIONS } from './operations/catalog.js';
import type { OperationDeps } from './operations/operation.js';
import type { OcdsPublication } from './present/ocdsPackage.js';
import { operationsRouter, routePath } from './operations/router.js';
import { frontDoor, searchRoute, type FrontDoor } from './http/frontDoor.js';
import { pagesRouter } from './pages/routes.js';
import { loadPages, type PageSet } from './pages/assets.js';
import type { LiveState } from './liveState/liveState.js';
import type { SearchGateway } from './gateway/gateway.js';
import type { Admission } from './gateway/admission.js';
import { abandonedSearchesCancelled } from './http/abandon.js';
import { RefusalLog } from './http/refusalLog.js';
import { answers } from './wire/answers.js';
import { jsonRepresentation } from './wire/representation.js';
import { createZeroResultsLog, type ZeroResultsLog } from './zeroResults/zeroResultsLog.js';
import type { ResponseCache } from './wire/responseCache.js';
import { ServedWordForms } from './matching/highlight/servedWordForms.js';

export interface AppDeps {
  config: Config;
  search: SearchGateway;
  /** The gateway's admission control: readiness says when it sheds, metrics report it. */
  admission?: Admission;
  limiter: ClientRateLimiter;
  logger: Logger;
  /** Prometheus metrics (METRICS_PORT): every answer counted and timed, searches and refusals too. */
  metrics?: Metrics;
  /** What is served now (src/liveState/): the same one the response cache keys on. */
  liveState: LiveState;
  /** Finished answers of the live index generation (createResponseCache); absent: every request is answered. */
  responseCache?: ResponseCache;
  /** Traces on (src/tracing.ts): a server span per request. Absent: no span, no middleware. */
  tracer?: Tracer;
  /** Where the searches that found nothing are counted; absent: in this process (createZeroResultsLog). */
  zeroResults?: ZeroResultsLog;
}

/**
 * Koa with the front door before it (src/http/frontDoor.ts): while the instance sheds, a request that needs a
 * search is refused before Koa does anything for it.
 */
class ApiApp extends Koa {
  door: FrontDoor | undefined;

  override callback(): ReturnType<Koa['callback']> {
    const handle = super.callback();
    const door = this.door;
    if (!door) return handle;
    // (The API serves HTTP/1.1: Koa's type also allows HTTP/2's request and response.)
    return (request, response) =>
      door(request as IncomingMessage, response as ServerResponse)
        ? Promise.resolve()
        : handle(request, response);
  }
}

// The pages and their assets, read from disk once per process: every app a process builds (the tests build many)
// serves the same files. Module state of the composition root alone.
let pageSet: PageSet | undefined;

export function createApp(deps: AppDeps): Koa {
  const { config, logger, metrics, responseCache, admission } = deps;
  if (metrics && responseCache) metrics.observeCache(responseCache);
  if (metrics && admission) metrics.observeAdmission(admission);
  const search = metrics ? metrics.instrumentSearch(deps.search) : deps.search;
  const limiter = metrics ? metrics.instrumentLimiter(deps.limiter) : deps.limiter;
  const app = new ApiApp();
  applyProxyTrust(app, config.trustProxyHops);
  // Every error is answered by problemResponses; this only hears about failures while writing a response.
  app.silent = true;
  app.on('error', (error: unknown) => logger.error({ err: error }, 'response failed'));

  const liveState = deps.liveState;
  // The words "did you mean" rewrites a `q` that found nothing towards, read in the background from now on.
  liveState.watchVocabulary();
  const zeroResults =
    deps.zeroResults ?? createZeroResultsLog({ retentionDays: config.zeroResultsRetentionDays });
  if (metrics) metrics.observeServedState(liveState.served);
  const operationDeps: OperationDeps = {
    search,
    liveState,
    ...(admission ? { admission } : {}),
    ...(config.publicBaseUrl !== undefined ? { publicBaseUrl: config.publicBaseUrl } : {}),
    answer: answers({
      ...(responseCache ? { cache: responseCache } : {}),
      maxAgeSeconds: config.cacheMaxAgeSeconds,
    }),
    exports: { slots: new ExportSlots(config.exportConcurrency), logger },
    // Serialized and hashed once, not on every request: it depends only on configuration.
    openApiDocument: jsonRepresentation(buildOpenApiSpec({ publicBaseUrl: config.publicBaseUrl })),
    zeroResults: metrics ? metrics.instrumentZeroResults(zeroResults) : zeroResults,
    ocds: ocdsPublication(config),
    // Kept across this app's answers and gone with it; bounded by MAX_WORD_FORMS.
    wordForms: new ServedWordForms(),
  };
  // /health/* answers before the rate limit (never counted); /api/v1/* after it.
  const health = operationsRouter(
    OPERATIONS.filter((operation) => !isApiPath(operation.path)),
    operationDeps,
  );
  const api = operationsRouter(
    OPERATIONS.filter((operation) => isApiPath(operation.path)),
    operationDeps,
  );
  const pages = pagesRouter((pageSet ??= loadPages()));

  const refusalLog = new RefusalLog(logger);
  if (admission) {
    app.door = frontDoor({
      admitsNow: () => admission.admitsNow(),
      searchRoutes: OPERATIONS.filter(
        (operation) => isApiPath(operation.path) && !operation.withoutSearch,
      ).map((operation) =>
        searchRoute(operation.path, routePath(operation.path), operation.form !== undefined),
      ),
      ...(responseCache ? { holdsAnswer: (url: string) => responseCache.holdsAnswerTo(url) } : {}),
      exposedHeaders: RATE_LIMIT_HEADER_NAMES,
      refused: (route, method, seconds) => {
        admission.noteRefusal();
        refusalLog.count(route);
        metrics?.countRefusal(route, method, seconds);
      },
    });
  }

  app.use(requestId());
  if (deps.tracer) {
    const probes = OPERATIONS.filter((operation) => !isApiPath(operation.path)).map(({ path }) => path);
    app.use(serverSpans(deps.tracer, { trustProxyHops: config.trustProxyHops, probes }));
  }
  if (metrics) app.use(metrics.httpMiddleware());
  app.use(requestLog(logger));
  app.use(securityHeaders());
  app.use(cors(RATE_LIMIT_HEADER_NAMES, (path) => allowedMethods([api], path)));
  app.use(problemResponses(logger, refusalLog, RATE_LIMIT_HEADER_NAMES));
  app.use(compression());
  app.use(health.routes());
  app.use(pages.routes());
  app.use(underApi(rateLimit(limiter)));
  app.use(boundedQueryString());
  app.use(onlyReadMethods([health, pages, api]));
  app.use(abandonedSearchesCancelled());
  app.use(api.routes());
  return app;
}

/** The OCDS answers' publisher and terms, from the OCDS_* variables. */
function ocdsPublication(config: Config): OcdsPublication {
  return {
    ocidPrefix: config.ocidPrefix,
    publisherName: config.ocdsPublisherName,
    ...(config.ocdsLicense !== undefined ? { license: config.ocdsLicense } : {}),
    ...(config.ocdsPublicationPolicy !== undefined
      ? { publicationPolicy: config.ocdsPublicationPolicy }
      : {}),
  };
}

/** Runs `middleware` only for API paths (in any case: see isApiPath). */
function underApi(middleware: Middleware): Middleware {
  return (ctx, next) => (isApiPath(ctx.path) ? middleware(ctx, next) : next());
}
