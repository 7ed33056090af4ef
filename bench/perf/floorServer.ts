// The floor under the API's own cost, for bench/floor.ts, in one of two modes:
//   pure  — the API's own app (createApp, the same operations, middleware and presenters) with its layers left out:
//           no rate-limit store (a limiter that counts nothing), no log, no response cache, no admission, no
//           metrics; the gateway without admission, its searches replayed with FLOOR_REPLAY. What the API adds over
//           it is what those layers cost; being the API's own app, it cannot drift from what it bounds.
//   proxy — a bare node:http server: parse and build only, then Elasticsearch's answer sent on as it came: no JSON
//           parse, no presenting, no compression. What any Node service in front of Elasticsearch pays with this
//           client (the list without facets, statistics and detail: the mix's kinds).
// Started by bench/floor.ts with ES_URL, ES_INDEX, FLOOR_MODE and FLOOR_REPLAY (--replay: each search answered
// from its first answer, bench/perf/replay.ts); prints "listening <port>" when ready.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pino } from 'pino';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { LiveState } from '../../src/liveState/liveState.js';
import { createLiveLookups } from '../../src/liveState/lookups.js';
import { parseDetailRequest } from '../../src/params/detail.js';
import { parseListQuery } from '../../src/params/list.js';
import { parseStatisticsQuery } from '../../src/params/statistics.js';
import type { ClientRateLimiter } from '../../src/rateLimit/index.js';
import { buildDetailLookup } from '../../src/queries/detailSearch.js';
import { createSearchGateway } from '../../src/gateway/gateway.js';
import { buildListSearches } from '../../src/queries/listSearch.js';
import { buildStatisticsSearch } from '../../src/queries/statisticsSearch.js';
import { createEsClient } from '../../settings/esClient.js';
import { replayingGateway } from './replay.js';

const config = loadConfig(process.env);
const client = createEsClient(config.es, { maxRetries: 0 });
const index = config.es.alias;

/** A limiter that lets everything through and counts nothing: the rate limit's store left out. */
const UNLIMITED: ClientRateLimiter = {
  points: Number.MAX_SAFE_INTEGER,
  windowSeconds: config.rateLimitWindowSeconds,
  consume: () =>
    Promise.resolve({
      allowed: true,
      limit: Number.MAX_SAFE_INTEGER,
      remaining: Number.MAX_SAFE_INTEGER,
      resetSeconds: 1,
    }),
  health: () => ({ status: 'ok', store: 'memory' }),
  close: () => Promise.resolve(),
};

function pureServer(): Server {
  const target = { client, alias: index, requestTimeoutMs: config.es.requestTimeoutMs };
  const gateway = createSearchGateway(target);
  const app = createApp({
    config: { ...config, responseCacheBytes: 0 },
    search: process.env.FLOOR_REPLAY ? replayingGateway(gateway) : gateway,
    limiter: UNLIMITED,
    logger: pino({ level: 'silent' }),
    liveState: new LiveState({ lookups: createLiveLookups(target), limiter: UNLIMITED }),
  });
  return createServer(app.callback());
}

const LIST = '/api/v1/ppas';

/** The request Elasticsearch is sent for a path of the mix (list without facets, statistics, detail). */
function esRequestOf(path: string, querystring: string) {
  if (path === LIST) {
    return {
      method: 'POST',
      path: `/${index}/_search`,
      body: buildListSearches(parseListQuery(querystring))[0],
    };
  }
  if (path === `${LIST}/statistics`) {
    return {
      method: 'POST',
      path: `/${index}/_search`,
      body: buildStatisticsSearch(parseStatisticsQuery(querystring)),
    };
  }
  const slug = parseDetailRequest(decodeURIComponent(path.slice(LIST.length + 1)), querystring);
  const lookup = buildDetailLookup(slug);
  return {
    method: 'GET',
    path: `/${index}/_doc/${encodeURIComponent(lookup.id)}`,
    querystring: { _source_includes: lookup._source_includes.join(','), realtime: 'false' },
  };
}

async function proxyAnswer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = request.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const querystring = mark < 0 ? '' : url.slice(mark + 1);
  const answered = (await client.transport.request(esRequestOf(path, querystring), {
    asStream: true,
    ignore: [404],
  })) as unknown as Readable;
  response.writeHead(200, { 'content-type': 'application/json' });
  await pipeline(answered, response);
}

function proxyServer(): Server {
  return createServer((request, response) => {
    proxyAnswer(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
}

const server = process.env.FLOOR_MODE === 'proxy' ? proxyServer() : pureServer();
server.keepAliveTimeout = 65_000;
// A free port of the system's choosing, printed when listening: a port picked beforehand may be taken meanwhile by
// another process (the quick forms run side by side).
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening ${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
