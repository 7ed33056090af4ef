// The services the API process runs on, from its configuration: the search gateway and its admission control, the
// shared rate limiter, the metrics (METRICS_PORT) and the response cache. src/server.ts wires them into the app; bench/perf/replayApi.ts
// wires the same ones, its searches replayed.
import { createResponseCache, type ResponseCache } from './wire/responseCache.js';
import { LiveState } from './liveState/liveState.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { createRateLimiter, type ClientRateLimiter } from './rateLimit/index.js';
import { Admission } from './search/admission.js';
import { createSearchGateway, type SearchGateway } from './search/gateway.js';
import { admissionOutcome } from './search/clientErrors.js';
import { createLiveLookups } from './liveState/lookups.js';
import { createEsClient } from '../settings/esClient.js';

export interface Services {
  search: SearchGateway;
  /** Admission control of the gateway's searches (readiness and metrics report it). */
  admission: Admission;
  limiter: ClientRateLimiter;
  /** What is served now: the generation, the change log's head, sync's state, the limiter's store. */
  liveState: LiveState;
  metrics?: Metrics;
  responseCache?: ResponseCache;
}

export function createServices(config: Config, logger: Logger): Services {
  const admission = createAdmission(config);
  // The client's own retries are off: the gateway tries a failed search again on another node, within the one
  // deadline of the request (ES_REQUEST_TIMEOUT_MS), which the client's retries would not respect.
  const client = createEsClient(config.es, { maxRetries: 0 });
  const target = { client, alias: config.es.alias, requestTimeoutMs: config.es.requestTimeoutMs };
  const search = createSearchGateway({ admission, ...target });
  const limiter = createRateLimiter({
    redisUrl: config.redisUrl,
    points: config.rateLimitPoints,
    windowSeconds: config.rateLimitWindowSeconds,
    logger: logger.child({ component: 'rate-limit' }),
  });
  const liveState = new LiveState({ lookups: createLiveLookups(target), limiter });
  const metrics =
    config.metricsPort !== undefined
      ? createMetrics({
          liveIndex: () => liveState.lookups.liveIndex(),
          indexContract: () => liveState.lookups.indexContract(),
        })
      : undefined;
  const responseCache = createResponseCache({
    maxBytes: config.responseCacheBytes,
    generation: () => liveState.generation(),
  });
  return {
    search,
    admission,
    limiter,
    liveState,
    ...(metrics ? { metrics } : {}),
    ...(responseCache ? { responseCache } : {}),
  };
}

/** Admission control from ADMISSION_MAX_IN_FLIGHT and ADMISSION_MAX_WAIT_MS. */
export function createAdmission(
  config: Pick<Config, 'admissionMaxInFlight' | 'admissionMaxWaitMs'>,
): Admission {
  return new Admission({
    maxLimit: config.admissionMaxInFlight,
    maxWaitMs: config.admissionMaxWaitMs,
    outcomeOf: admissionOutcome,
  });
}
