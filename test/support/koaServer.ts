// A Koa app of a few middleware on an ephemeral port of 127.0.0.1, for unit tests of src/http/'s middleware and of
// the operations' routers: no Elasticsearch, no app of the API. `raw` asks it with node's http client, which
// (unlike fetch) hands over the body as sent (compressed or not) and lets a test drop the connection.
import type { Router } from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { problemResponses } from '../../src/http/problemResponses.js';

export interface KoaServer {
  base: string;
  port: number;
  close(): Promise<void>;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Serves `middleware` in order. */
export function serveKoa(...middleware: Middleware[]): Promise<KoaServer> {
  const app = new Koa();
  for (const each of middleware) app.use(each);
  return listen(app);
}

/** Serves `app` (for middleware of richer contexts than Koa's own: a router's). */
export async function listen<State, Context>(app: Koa<State, Context>): Promise<KoaServer> {
  app.silent = true;
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The API's own error answers (problem+json), with a silent log: what a middleware throws, as a client sees it. */
export function problems(): Middleware {
  return problemResponses(pino({ level: 'silent' }));
}

/** Serves a router of operations behind the API's error answers, as src/app.ts mounts them. */
export function serveRoutes(router: Router): Promise<KoaServer> {
  const app = new Koa();
  app.use(problems());
  app.use(router.routes());
  return listen(app);
}

/** The answer's body read as JSON. */
export function jsonOf<T = Record<string, unknown>>(answer: RawAnswer): T {
  return JSON.parse(answer.body.toString('utf8')) as T;
}

/** One request with node's http client: the answer's bytes as sent. */
export function raw(
  server: KoaServer,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}
