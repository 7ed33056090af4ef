// The services the API process runs on, from its configuration: the search gateway and its admission control, the
// shared rate limiter, the metrics (METRICS_PORT) and the response cache. src/server.ts wires them into the app; bench/perf/replayApi.ts
// wires the same ones, its searches replayed.
import { createResponseCache, type ResponseCache } from './wire/responseCache.js';
import { LiveState } from './liveState/liveState.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { createRateLimiter, type ClientRateLimiter } from './rateLimit/index.js';
import { Admission } from './gateway/admission.js';
import { createSearchGateway, type SearchGateway } from './gateway/gateway.js';
import { admissionOutcome } from './gateway/clientErrors.js';
import { processLoopMonitor, type LoopLoad, type LoopMonitor } from './gateway/loopMonitor.js';
import { createLiveLookups } from './liveState/lookups.js';
import { createEsClient } from '../settings/esClient.js';
import type { Tracing } from './tracing.js';
import { createZeroResultsLog, type ZeroResultsLog } from './zeroResults/zeroResultsLog.js';

export interface Services {
  search: SearchGateway;
  /** Admission control of the gateway's searches (readiness and metrics report it). */
  admission: Admission;
  limiter: ClientRateLimiter;
  /** What is served now: the generation, the change log's head, sync's state, the limiter's store. */
  liveState: LiveState;
  metrics?: Metrics;
  responseCache?: ResponseCache;
  /** Where the list's searches that found nothing are counted: the rate limiter's Redis, else this process. */
  zeroResults: ZeroResultsLog;
}

// The composition root's one piece of process state: the process has one event loop, so one monitor of it, made
// on first use (a process reads one configuration) and shared by every app it builds.
let loopMonitor: LoopMonitor | undefined;
const theProcessLoopMonitor = (saturatedDelayMs: number): LoopMonitor =>
  (loopMonitor ??= processLoopMonitor(saturatedDelayMs));

/** `tracing`: traces on (src/tracing.ts); absent, neither the gateway nor the Elasticsearch client makes a span. */
export function createServices(config: Config, logger: Logger, tracing?: Tracing): Services {
  const admission = createAdmission(config);
  // The client's own retries are off: the gateway tries a failed search again on another node, within the one
  // deadline of the request (ES_REQUEST_TIMEOUT_MS), which the client's retries would not respect.
  const client = createEsClient(config.es, { maxRetries: 0, traced: tracing !== undefined });
  const target = { client, alias: config.es.alias, requestTimeoutMs: config.es.requestTimeoutMs };
  const search = createSearchGateway({
    admission,
    ...target,
    ...(tracing ? { tracer: tracing.tracer } : {}),
  });
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
          clusterAnswers: () => liveState.lookups.ready().then((readiness) => readiness.cluster),
        })
      : undefined;
  const responseCache = createResponseCache({
    maxBytes: config.responseCacheBytes,
    generation: () => liveState.generation(),
  });
  const zeroResults = createZeroResultsLog({
    ...(config.redisUrl !== undefined ? { redisUrl: config.redisUrl } : {}),
    retentionDays: config.zeroResultsRetentionDays,
    onFailure: (error) => logger.warn({ err: error }, 'zero-result search counted in memory: Redis failed'),
  });
  return {
    search,
    admission,
    limiter,
    liveState,
    zeroResults,
    ...(metrics ? { metrics } : {}),
    ...(responseCache ? { responseCache } : {}),
  };
}

/**
 * Admission control from ADMISSION_MAX_IN_FLIGHT and ADMISSION_TARGET_MS, the target kept to half the search
 * deadline (ES_REQUEST_TIMEOUT_MS): an admitted search then has the other half for a retry on another node. It
 * reads this process's event loop (its delay is not Elasticsearch's; a saturated loop sheds at the door), or
 * `loop` where one process runs several apps with bounds of their own (the tests).
 */
export function createAdmission(
  config: Pick<Config, 'admissionMaxInFlight' | 'admissionTargetMs' | 'admissionLoopDelayMs' | 'es'>,
  loop: LoopLoad = theProcessLoopMonitor(config.admissionLoopDelayMs),
): Admission {
  return new Admission({
    maxLimit: config.admissionMaxInFlight,
    targetMs: admissionTargetMs(config),
    deadlineMs: config.es.requestTimeoutMs,
    loop,
    outcomeOf: admissionOutcome,
  });
}

/** The target admission aims at: ADMISSION_TARGET_MS, at most half of ES_REQUEST_TIMEOUT_MS. */
export function admissionTargetMs(config: Pick<Config, 'admissionTargetMs' | 'es'>): number {
  return Math.max(1, Math.min(config.admissionTargetMs, Math.floor(config.es.requestTimeoutMs / 2)));
}
