// The real app (createApp, as src/server.ts wires it) around a given limiter, for rate-limit tests that need
// several instances at once. Its paths need no index: /api/v1/openapi.json answers 200 (304 when If-None-Match
// names its ETag) and counts like every /api/v1 operation; /api/v1/no-such-path is a 404 problem that counts too;
// /health/live is never counted. The gateway points at an address nothing listens on, and no path used here
// reaches it.
import type Koa from 'koa';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { ClientRateLimiter } from '../../src/rateLimit/index.js';
import { createSearchGateway } from '../../src/gateway/gateway.js';
import { createEsClient } from '../../settings/esClient.js';
import { LiveState } from '../../src/liveState/liveState.js';
import { createLiveLookups } from '../../src/liveState/lookups.js';

export const COUNTED_PATH = '/api/v1/openapi.json';
export const FAILING_PATH = '/api/v1/no-such-path';

export function buildRateLimitedApp(limiter: ClientRateLimiter, trustProxyHops = 0): Koa {
  const defaults = loadConfig({});
  const config = {
    ...defaults,
    trustProxyHops,
    rateLimitPoints: limiter.points,
    responseCacheBytes: 0,
    es: { ...defaults.es, nodes: ['http://127.0.0.1:9'], alias: 'rate-limit-no-index' },
  };
  const target = {
    client: createEsClient(config.es, { maxRetries: 0 }),
    alias: config.es.alias,
    requestTimeoutMs: config.es.requestTimeoutMs,
  };
  const search = createSearchGateway(target);
  const liveState = new LiveState({ lookups: createLiveLookups(target), limiter });
  return createApp({ config, search, limiter, liveState, logger: pino({ level: 'silent' }) });
}

export interface RunningApp {
  baseUrl: string;
  close(): Promise<void>;
}

export async function listen(app: Koa): Promise<RunningApp> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A real pino logger whose lines land in an array, so tests can count what was logged. */
export function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line) as LogLine) },
  );
  return { logger, lines };
}
