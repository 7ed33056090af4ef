// Builds the real app (createApp) on a real Elasticsearch for tests: listening on a free port, with a capturing
// logger, an in-memory rate limiter unless one is given, and the gateway pointed at `alias`.
import { LiveState } from '../../src/liveState/liveState.js';
import { createLiveLookups } from '../../src/liveState/lookups.js';
import type { Tracer } from '@opentelemetry/api';
import type Koa from 'koa';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { createApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createRateLimiter, type ClientRateLimiter } from '../../src/rateLimit/index.js';
import { createSearchGateway, type SearchGateway } from '../../src/gateway/gateway.js';
import type { Admission } from '../../src/gateway/admission.js';
import { LoopMonitor } from '../../src/gateway/loopMonitor.js';
import { createAdmission } from '../../src/services.js';
import { createResponseCache, type ResponseCache } from '../../src/wire/responseCache.js';
import { createMetrics, type Metrics } from '../../src/metrics/metrics.js';
import { createEsClient } from '../../settings/esClient.js';
import type { ZeroResultsLog } from '../../src/zeroResults/zeroResultsLog.js';
import { ES_URL } from './services.js';
import { within } from './within.js';

/** The front door's loop bound in test apps (see configOverrides). */
const TEST_LOOP_DELAY_MS = 1000;

export interface TestAppOptions {
  /** The alias (or index) the app reads; ES_INDEX. */
  alias: string;
  /** Default: ES_URL from the environment. */
  esNodes?: string[];
  /** ES_REQUEST_TIMEOUT_MS; default: its default (2000). */
  requestTimeoutMs?: number;
  /** Default: an in-memory limiter with the config's quota (closed by close()). */
  limiter?: ClientRateLimiter;
  /**
   * Over the defaults of loadConfig({}) plus: rateLimitPoints 10000 (so suites
   * that are not about the rate limit never meet it), responseCacheBytes 0 (suites not about the response cache
   * see every request reach Elasticsearch), admissionLoopDelayMs 1000 (a test process is the client and the
   * server on one loop, beside Elasticsearch and other test processes on two cores: suites not about the front
   * door's loop bound never meet it; each app has a loop monitor of its own, with its own bound), LOG_LEVEL info.
   */
  configOverrides?: Partial<Config>;
  /** Default: a pino logger writing into `logs`. */
  logger?: Logger;
  /** Wraps the real gateway (e.g. to make it throw); the app gets what this returns. */
  wrapSearch?: (gateway: SearchGateway) => SearchGateway;
  /** Prometheus metrics for the app (read them from `metrics.registry`). */
  withMetrics?: boolean;
  /**
   * Traces on, as src/server.ts wires them when they are (registerTracing: the gateway, the Elasticsearch client
   * and the app); absent: off, as by default.
   */
  tracer?: Tracer;
  /** Where the searches that found nothing are counted (closed by close()); absent: the app's own, in memory. */
  zeroResults?: ZeroResultsLog;
}

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface TestApp {
  app: Koa;
  server: Server;
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  config: Config;
  search: SearchGateway;
  /** What the app serves now (the generation, its vocabulary, its flags' fences): a test mounting operations shares it. */
  liveState: LiveState;
  /** The gateway's admission control, as the server wires it (ADMISSION_MAX_IN_FLIGHT, ADMISSION_TARGET_MS). */
  admission: Admission;
  limiter: ClientRateLimiter;
  /** When responseCacheBytes > 0. */
  responseCache?: ResponseCache;
  metrics?: Metrics;
  /** What the default logger wrote (empty when a logger was given). */
  logs: LogLine[];
  /**
   * Resolves once the app has read its vocabulary, which it walks in the background at start with searches of its
   * own (suites that count the searches reaching Elasticsearch wait for it first).
   */
  vocabularyRead(): Promise<void>;
  /** Stops the server (dropping keep-alive connections), then closes the gateway and the default limiter. */
  close(): Promise<void>;
}

export async function buildTestApp(options: TestAppOptions): Promise<TestApp> {
  const logs: LogLine[] = [];
  const defaults = loadConfig({});
  const config: Config = {
    ...defaults,
    rateLimitPoints: 10_000,
    responseCacheBytes: 0,
    admissionLoopDelayMs: TEST_LOOP_DELAY_MS,
    ...options.configOverrides,
    es: {
      ...defaults.es,
      ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      nodes: options.esNodes ?? ES_URL.split(','),
      alias: options.alias,
    },
  };
  const logger =
    options.logger ??
    pino(
      { level: config.logLevel },
      { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) },
    );
  const loop = new LoopMonitor(config.admissionLoopDelayMs);
  const admission = createAdmission(config, loop);
  const target = {
    client: createEsClient(config.es, { maxRetries: 0, traced: options.tracer !== undefined }),
    alias: config.es.alias,
    requestTimeoutMs: config.es.requestTimeoutMs,
  };
  const tracer = options.tracer ? { tracer: options.tracer } : {};
  const gateway = createSearchGateway({ admission, ...target, ...tracer });
  const search = options.wrapSearch ? options.wrapSearch(gateway) : gateway;
  const limiter =
    options.limiter ??
    createRateLimiter({
      points: config.rateLimitPoints,
      windowSeconds: config.rateLimitWindowSeconds,
      logger,
    });
  const liveState = new LiveState({ lookups: createLiveLookups(target), limiter });
  const responseCache = createResponseCache({
    maxBytes: config.responseCacheBytes,
    generation: () => liveState.generation(),
  });
  const metrics = options.withMetrics
    ? createMetrics({
        liveIndex: () => liveState.lookups.liveIndex(),
        indexContract: () => liveState.lookups.indexContract(),
        clusterAnswers: () => liveState.lookups.ready().then((readiness) => readiness.cluster),
      })
    : undefined;
  const app = createApp({
    config,
    search,
    admission,
    limiter,
    logger,
    liveState,
    ...(responseCache ? { responseCache } : {}),
    ...(metrics ? { metrics } : {}),
    ...(options.zeroResults ? { zeroResults: options.zeroResults } : {}),
    ...tracer,
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    app,
    server,
    url: `http://127.0.0.1:${port}`,
    config,
    search,
    liveState,
    admission,
    limiter,
    ...(responseCache ? { responseCache } : {}),
    ...(metrics ? { metrics } : {}),
    logs,
    async vocabularyRead() {
      await within(20_000, 'the vocabulary read', async () => liveState.vocabulary() !== undefined, 20);
    },
    async close() {
      liveState.close();
      responseCache?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.close();
      loop.close();
      if (!options.limiter) await limiter.close();
      await options.zeroResults?.close();
    },
  };
}
