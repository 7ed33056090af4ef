// Prometheus metrics for operators (prom-client), served on a port of their own (METRICS_PORT) that the public
// never reaches: requests by route and status, latencies, Elasticsearch search latency, rate-limit refusals and
// the limiter's fallback state, admission control (limit, in flight, queue wait, overload refusals by route),
// whether Elasticsearch answers, and the age of the index generation being served.
import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ResponseCache } from '../wire/responseCache.js';
import type { ClientRateLimiter } from '../rateLimit/index.js';
import type { SearchGateway } from '../gateway/gateway.js';
import type { ServedStateWatcher } from '../liveState/servedStateWatcher.js';
import type { Admission } from '../gateway/admission.js';
import { routeOf, wasOverloaded } from '../http/refusalLog.js';
import { SearchDeclinedError } from '../gateway/searchErrors.js';
import { registerServedIndexGauges, servedStateMetrics, type MetricsSources } from './servedMetrics.js';

export type { MetricsSources };
import type { ZeroResultsLog } from '../zeroResults/zeroResultsLog.js';

const LATENCY_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface Metrics {
  registry: Registry;
  /** Counts and times every answer, labelled by route template (not the raw path: bounded cardinality). */
  httpMiddleware(): Middleware;
  /** The gateway, its searches timed. */
  instrumentSearch(search: SearchGateway): SearchGateway;
  /** The limiter, its refusals counted and its fallback state reported. */
  instrumentLimiter(limiter: ClientRateLimiter): ClientRateLimiter;
  /** Reports the response cache: hits, misses, bytes held and entries. */
  observeCache(cache: ResponseCache): void;
  /** Reports sync's removal guard, sync's lag and the change log's lag. */
  observeServedState(state: ServedStateWatcher): void;
  /** Counts a request the front door refused for overload, as httpMiddleware counts those the app refused. */
  countRefusal(route: string, method: string, seconds: number): void;
  /** Reports admission control: the limit, searches in flight and queued, the wait for a slot. */
  observeAdmission(admission: Admission): void;
  /** The log of searches that found nothing, each list search with q counted by whether it found anything. */
  instrumentZeroResults(log: ZeroResultsLog): ZeroResultsLog;
}

/** The API's metrics in one registry: Node's own (`ppa_` prefixed), then one part per concern below. */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'ppa_' });
  registerServedIndexGauges(registry, sources);
  return {
    registry,
    ...answerMetrics(registry),
    ...searchMetrics(registry),
    ...rateLimitMetrics(registry),
    ...admissionMetrics(registry),
    ...servedStateMetrics(registry),
    ...cacheMetrics(registry),
    ...textSearchMetrics(registry),
  };
}

/**
 * Answers by route template, method and status, their time, and the refusals for overload among them: those the
 * app made (httpMiddleware) and those the front door made before Koa (countRefusal), counted alike.
 */
function answerMetrics(registry: Registry): Pick<Metrics, 'httpMiddleware' | 'countRefusal'> {
  const requests = new Counter({
    name: 'ppa_http_requests_total',
    help: 'Answers by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'ppa_http_request_duration_seconds',
    help: 'Time to answer, by route template',
    labelNames: ['route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const overloadRefusals = new Counter({
    name: 'ppa_overload_refusals_total',
    help: 'Requests refused for overload (503 overloaded, not run), by route template',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const refusalDuration = new Histogram({
    name: 'ppa_overload_refusal_duration_seconds',
    help: 'Time to answer a request refused for overload (503 overloaded), server side',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    countRefusal(route, method, seconds) {
      requests.inc({ route, method, status: '503' });
      overloadRefusals.inc({ route });
      refusalDuration.observe(seconds);
      duration.observe({ route }, seconds);
    },
    httpMiddleware() {
      return async (ctx, next) => {
        const started = process.hrtime.bigint();
        try {
          await next();
        } finally {
          // The matched route template (e.g. /api/v1/ppas/:slug), never the raw path.
          const route = routeOf(ctx);
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          requests.inc({ route, method: ctx.method, status: String(ctx.status) });
          if (wasOverloaded(ctx)) {
            overloadRefusals.inc({ route });
            refusalDuration.observe(seconds);
          }
          duration.observe({ route }, seconds);
        }
      };
    },
  };
}

/** Elasticsearch's round trips for client requests, timed by outcome (the change log's searches are not). */
function searchMetrics(registry: Registry): Pick<Metrics, 'instrumentSearch'> {
  const searches = new Histogram({
    name: 'ppa_search_duration_seconds',
    help: 'Elasticsearch searches, by outcome (ok or error)',
    labelNames: ['outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  /** One round trip to Elasticsearch, timed by outcome. */
  const timed = async <T>(call: () => Promise<T>): Promise<T> => {
    const stop = searches.startTimer();
    try {
      const answer = await call();
      stop({ outcome: 'ok' });
      return answer;
    } catch (error) {
      // An optional search admission declined made no round trip (admissionMetrics counts it).
      if (!(error instanceof SearchDeclinedError)) stop({ outcome: 'error' });
      throw error;
    }
  };
  return {
    instrumentSearch: (search) =>
      ({
        ...search,
        search: (request, options) => timed(() => search.search(request, options)),
        msearch: (requests, options) => timed(() => search.msearch(requests, options)),
        getDocument: (lookup) => timed(() => search.getDocument(lookup)),
        searchParties: (request) => timed(() => search.searchParties(request)),
      }) as SearchGateway,
  };
}

/** The rate limiter: its refusals, and whether it counts in memory while Redis is away. */
function rateLimitMetrics(registry: Registry): Pick<Metrics, 'instrumentLimiter'> {
  const refusals = new Counter({
    name: 'ppa_rate_limit_refusals_total',
    help: 'Requests refused by the rate limit (429)',
    registers: [registry],
  });
  let limiterHealth: (() => { status: string }) | undefined;
  new Gauge({
    name: 'ppa_rate_limit_degraded',
    help: '1 while Redis is away and the in-memory insurance limiter counts, else 0',
    registers: [registry],
    collect() {
      this.set(limiterHealth?.().status === 'degraded' ? 1 : 0);
    },
  });
  return {
    instrumentLimiter(limiter) {
      limiterHealth = () => limiter.health();
      return {
        get points() {
          return limiter.points;
        },
        get windowSeconds() {
          return limiter.windowSeconds;
        },
        async consume(key) {
          const decision = await limiter.consume(key);
          if (!decision.allowed) refusals.inc();
          return decision;
        },
        health: () => limiter.health(),
        close: () => limiter.close(),
      };
    },
  };
}

type AdmissionState = ReturnType<Admission['state']>;

/** Admission control: the wait for a slot, and the limit, in flight, queued and shedding read at each scrape. */
function admissionMetrics(registry: Registry): Pick<Metrics, 'observeAdmission'> {
  const queueWait = new Histogram({
    name: 'ppa_admission_queue_wait_seconds',
    help: 'Time an admitted search waited for a slot (0 when one was free)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    registers: [registry],
  });
  let admissionState: (() => AdmissionState) | undefined;
  const admissionGauge = (name: string, help: string, read: (state: AdmissionState) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        if (admissionState) this.set(read(admissionState()));
      },
    });
  admissionGauge(
    'ppa_admission_limit',
    'Searches this instance lets run in Elasticsearch at once now',
    (s) => s.limit,
  );
  admissionGauge(
    'ppa_admission_in_flight',
    'Searches admitted and running in Elasticsearch',
    (s) => s.inFlight,
  );
  admissionGauge('ppa_admission_queued', 'Searches waiting for a slot', (s) => s.queued);
  admissionGauge(
    'ppa_admission_shedding',
    '1 while the instance refuses searches for overload (a refusal in the last 10 s), else 0',
    (s) => (s.shedding ? 1 : 0),
  );
  new Counter({
    name: 'ppa_admission_optional_declined_total',
    help:
      'Optional searches (the count behind did_you_mean) not run because searches were waiting or being ' +
      'refused: those empty answers were sent at once, with meta.did_you_mean null',
    registers: [registry],
    collect() {
      // Admission counts; the counter repeats its total (it only ever rises, as admission's does).
      this.reset();
      if (admissionState) this.inc(admissionState().declined);
    },
  });
  return {
    observeAdmission(admission) {
      admissionState = () => admission.state();
      admission.onAdmitted((seconds) => queueWait.observe(seconds));
    },
  };
}

type CacheStats = ReturnType<ResponseCache['stats']>;

/** The response cache's hits and misses (counters) and what it holds (gauges), read from its stats at each scrape. */
function cacheMetrics(registry: Registry): Pick<Metrics, 'observeCache'> {
  let cacheStats: (() => CacheStats) | undefined;
  const cacheCounter = (name: string, help: string, read: (stats: CacheStats) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        // The cache counts; the counter repeats its total (a counter only ever rises, as the cache's does).
        this.reset();
        if (cacheStats) this.inc(read(cacheStats()));
      },
    });
  const cacheGauge = (name: string, help: string, read: (stats: CacheStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(cacheStats ? read(cacheStats()) : 0);
      },
    });
  cacheCounter('ppa_response_cache_hits_total', 'Answers sent from the response cache', (s) => s.hits);
  cacheCounter(
    'ppa_response_cache_misses_total',
    'Cacheable requests the response cache did not hold (answered by a search)',
    (s) => s.misses,
  );
  cacheGauge('ppa_response_cache_bytes', 'Bytes the response cache holds', (s) => s.bytes);
  cacheGauge(
    'ppa_response_cache_max_bytes',
    'The response cache bound (RESPONSE_CACHE_MB)',
    (s) => s.maxBytes,
  );
  cacheGauge('ppa_response_cache_entries', 'Answers the response cache holds', (s) => s.entries);
  return {
    observeCache(cache) {
      cacheStats = () => cache.stats();
    },
  };
}

/** List searches with q by outcome: those that found nothing per minute, and their share (the zero-result alert). */
function textSearchMetrics(registry: Registry): Pick<Metrics, 'instrumentZeroResults'> {
  const searches = new Counter({
    name: 'ppa_text_searches_total',
    help: 'List searches with q answered (from the response cache too), by outcome: found or nothing',
    labelNames: ['outcome'],
    registers: [registry],
  });
  // Both series from the start, so that their rates exist before the first search of each kind.
  for (const outcome of ['found', 'nothing']) searches.inc({ outcome }, 0);
  return {
    instrumentZeroResults: (log) => ({
      ...log,
      note(search) {
        searches.inc({ outcome: search.found ? 'found' : 'nothing' });
        log.note(search);
      },
    }),
  };
}
