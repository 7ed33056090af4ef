// The process entry: reads the configuration, wires the real clients, listens, and shuts down gracefully on
// SIGTERM/SIGINT (stop accepting, let in-flight requests finish, close Elasticsearch and Redis, exit 0).
import { RELEASE } from '../indexContract/contract.js';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { createApp } from './app.js';
import { createMetricsServer } from './metrics/metricsServer.js';
import { ConfigError, loadConfig, SHUTDOWN_GRACE_MS, type Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { createServices } from './services.js';
import { startTracing } from './tracing.js';

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * The next full garbage collection once the old generation is twice what survived the last one (V8's default lets
 * it grow up to 4×). An export turns over gigabytes of short-lived batches, some of which get promoted while they
 * wait for the socket: with the default the heap climbed to several times what was live before a collection;
 * nothing is retained. A lower factor kept that lower still, but under search traffic the response cache's
 * turnover then set off a full collection every few seconds, at twice the CPU (docs/performance.md, "Garbage
 * collection"). A factor, not a cap (a heap that needs more
 * still grows). Skipped when the operator set heap-growing flags (docs/operations.md, "API memory").
 */
function tuneGarbageCollector(): void {
  const ownFlags = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
  if (!/heap[-_]growing/.test(ownFlags)) setFlagsFromString('--heap-growing-percent=100');
}

/** Connections waiting to be accepted, at most (the kernel's net.core.somaxconn caps it). */
const ACCEPT_BACKLOG = 4096;

async function main(): Promise<void> {
  tuneGarbageCollector();
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });

  const tracing = startTracing(config, logger);
  const services = createServices(config, logger, tracing);
  const { search, limiter, liveState, metrics, responseCache, zeroResults } = services;
  const app = createApp({
    config,
    logger,
    ...services,
    ...(tracing ? { tracer: tracing.tracer } : {}),
  });
  const server = createServer(app.callback());
  // Longer than the idle timeout of the proxies usually in front (nginx, cloud balancers: 60 s), so they never
  // reuse a connection this side has just closed (a 502 for the client).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  let metricsServer: ReturnType<typeof createMetricsServer> | undefined;
  // Handlers first: a signal that arrives as soon as we listen must already mean a graceful stop.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    metricsServer?.close();
    liveState.close();
    responseCache?.close();
    void stop(server, logger).then(async (forced) => {
      await Promise.allSettled([search.close(), limiter.close(), zeroResults.close(), tracing?.shutdown()]);
      logger.info({ forced }, 'stopped');
      process.exit(forced ? 1 : 0);
    });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  // A burst of new connections (a linked search, many clients at once) waits in the kernel's accept queue until
  // the event loop takes it; past the queue's length a connection attempt is dropped, and the client only tries
  // again a second later (its SYN is retransmitted). Node's default length is 511; the kernel caps what is asked
  // (net.core.somaxconn).
  server.listen({ port: config.port, host: config.host, backlog: ACCEPT_BACKLOG });
  await once(server, 'listening');
  if (metrics && config.metricsPort !== undefined) {
    metricsServer = createMetricsServer(metrics.registry);
    metricsServer.listen(config.metricsPort, config.host);
    await once(metricsServer, 'listening');
    logger.info({ port: config.metricsPort }, 'metrics on GET /metrics');
  }
  const { address, port } = server.address() as AddressInfo;
  logger.info(
    {
      address,
      port,
      es_nodes: config.es.nodes.map(withoutCredentials),
      alias: config.es.alias,
      rate_limit_store: config.redisUrl ? 'redis' : 'memory',
      traces: tracing ? 'otlp' : 'off',
      release: RELEASE,
    },
    'listening',
  );
  // Not a condition to start: /health/ready reports it, and the API recovers when the cluster comes.
  void liveState.lookups.ready().then((readiness) => {
    if (!readiness.cluster || !readiness.alias) logger.warn({ readiness }, 'search not ready yet');
  });
  // One line at start when the live index is not all this release serves (readiness and a metric say it too).
  void liveState.lookups.indexContract().then(
    (reading) => {
      if (reading && reading.status !== 'ok')
        logger.warn({ index_contract: reading }, `index contract: ${reading.status}: ${reading.detail}`);
    },
    () => undefined,
  );
}

/** Stops accepting, drops idle keep-alive connections as they appear, and waits for the busy ones. */
function stop(server: ReturnType<typeof createServer>, logger: Logger): Promise<boolean> {
  return new Promise((resolve) => {
    let forced = false;
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      forced = true;
      logger.warn(
        { grace_ms: SHUTDOWN_GRACE_MS },
        'requests still in flight after the grace period: closing them',
      );
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(deadline);
      resolve(forced);
    });
    server.closeIdleConnections();
  });
}

function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//');
}

await main();
