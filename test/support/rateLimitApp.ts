// A minimal Koa app around the rate-limit middleware, for tests that need several instances at once.
import Koa, { type Middleware } from 'koa';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { ProblemError } from '../../src/http/problem.js';
import { applyProxyTrust, rateLimit, type ClientRateLimiter } from '../../src/rateLimit/index.js';

/** Renders thrown errors as problem+json on the same response, the way the app's error middleware does. */
export const renderProblems: Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    const problem =
      error instanceof ProblemError
        ? error
        : new ProblemError(500, 'Internal Server Error', 'Unexpected error.');
    ctx.status = problem.status;
    ctx.set(problem.headers);
    ctx.type = 'application/problem+json';
    ctx.body = { type: 'about:blank', title: problem.title, status: problem.status, detail: problem.detail };
  }
};

/** /api/v1/ppas answers 200 (304 when If-None-Match matches), /api/v1/boom throws, /health/live is not counted. */
const routes: Middleware = async (ctx) => {
  if (ctx.path === '/api/v1/boom') throw new Error('downstream failure');
  if (ctx.path === '/health/live') {
    ctx.body = { status: 'ok' };
    return;
  }
  ctx.set('ETag', '"v1"');
  ctx.status = 200;
  ctx.body = { data: [] };
  if (ctx.fresh) ctx.status = 304;
};

export function buildRateLimitedApp(limiter: ClientRateLimiter, trustProxyHops = 0): Koa {
  const app = new Koa();
  applyProxyTrust(app, trustProxyHops);
  app.use(renderProblems);
  app.use(rateLimit(limiter, { pathPrefix: '/api/v1' }));
  app.use(routes);
  return app;
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
