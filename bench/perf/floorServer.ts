// The floor under the API's own cost, for bench/floor.ts: a bare node:http server (no Koa, no middleware, no rate
// limit, no log, no ETag, no cache) on the same Elasticsearch client, in one of two modes:
//   pure  — the API's own pure work for list, statistics and detail: parse the query string, build the search
//           (the API's functions), one search, present (the API's functions), JSON, gzip at level 1 past 1 KB;
//   proxy — parse and build only, then Elasticsearch's answer sent on as it came: no JSON parse, no presenting,
//           no compression. What any Node service in front of Elasticsearch pays with this client.
// Started by bench/floor.ts with ES_URL, ES_INDEX, FLOOR_MODE and FLOOR_REPLAY (--replay: each search answered
// from its first answer, bench/perf/replay.ts); prints "listening <port>" when ready.
import type { estypes } from '@elastic/elasticsearch';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../../src/config.js';
import { parseDetailRequest } from '../../src/params/detail.js';
import { parseListQuery, type ListQuery } from '../../src/params/list.js';
import { canonicalQueryString } from '../../src/params/querystring.js';
import { parseStatisticsQuery } from '../../src/params/statistics.js';
import { highlighterFor, presentList } from '../../src/present/list.js';
import { presentPpa } from '../../src/present/ppa.js';
import { presentStatistics } from '../../src/present/statistics.js';
import { buildDetailLookup, type DocumentLookup } from '../../src/search/detailSearch.js';
import type { SearchRequestBody } from '../../src/search/gateway.js';
import { buildListSearches } from '../../src/search/listSearch.js';
import { buildStatisticsSearch, type StatisticsAggregations } from '../../src/search/statisticsSearch.js';
import type { DetailSource, ListSource } from '../../indexContract/sourceFields.js';
import { createEsClient } from '../../settings/esClient.js';
import { replaying } from './replay.js';

const config = loadConfig(process.env);
const client = createEsClient(config.es, { maxRetries: 0 });
const index = config.es.alias;
const proxy = process.env.FLOOR_MODE === 'proxy';
type Search = <TDoc, TAggregations = Record<string, estypes.AggregationsAggregate>>(
  body: SearchRequestBody,
) => Promise<estypes.SearchResponse<TDoc, TAggregations>>;
const ask = (body: SearchRequestBody) => client.search({ ...body, index });
/** FLOOR_REPLAY=1 (bench/floor.ts --replay, pure mode): each search answered from its first answer, replayed. */
const search = (process.env.FLOOR_REPLAY ? replaying(ask) : ask) as Search;
const lookUp = async (lookup: DocumentLookup): Promise<unknown> => {
  const found = await client.get({ ...lookup, index }, { ignore: [404] });
  return found.found ? (found._source ?? null) : null;
};
const getDocument = (process.env.FLOOR_REPLAY ? replaying(lookUp) : lookUp) as <TDoc>(
  lookup: DocumentLookup,
) => Promise<TDoc | null>;
const LIST = '/api/v1/ppas';

/** What a path asks for (list without facets, statistics, detail: the benchmark mix's kinds) and its search. */
type Asked =
  | { kind: 'list'; query: ListQuery; body: SearchRequestBody }
  | { kind: 'statistics'; body: SearchRequestBody }
  | { kind: 'detail'; lookup: DocumentLookup };

function askedOf(path: string, querystring: string): Asked {
  if (path === LIST) {
    const query = parseListQuery(querystring);
    return { kind: 'list', query, body: buildListSearches(query)[0] };
  }
  if (path === `${LIST}/statistics`) {
    return { kind: 'statistics', body: buildStatisticsSearch(parseStatisticsQuery(querystring)) };
  }
  const slug = parseDetailRequest(decodeURIComponent(path.slice(LIST.length + 1)), querystring);
  return { kind: 'detail', lookup: buildDetailLookup(slug) };
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = request.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const querystring = mark < 0 ? '' : url.slice(mark + 1);
  const asked = askedOf(path, querystring);
  if (proxy) {
    const request =
      asked.kind === 'detail'
        ? {
            method: 'GET',
            path: `/${index}/_doc/${encodeURIComponent(asked.lookup.id)}`,
            querystring: { _source_includes: asked.lookup._source_includes.join(','), realtime: 'false' },
          }
        : { method: 'POST', path: `/${index}/_search`, body: asked.body };
    const answered = (await client.transport.request(request, {
      asStream: true,
      ignore: [404],
    })) as unknown as Readable;
    response.writeHead(200, { 'content-type': 'application/json' });
    await pipeline(answered, response);
    return;
  }
  const base = `http://${request.headers.host ?? '127.0.0.1'}`;
  let presented: unknown;
  if (asked.kind === 'list') {
    const result = await search<ListSource>(asked.body);
    const { query } = asked;
    presented = presentList(
      { response: result },
      { query, querystring: canonicalQueryString(querystring), base, highlight: highlighterFor(query) },
    ).body;
  } else if (asked.kind === 'statistics') {
    presented = presentStatistics(await search<unknown, StatisticsAggregations>(asked.body));
  } else {
    const source = await getDocument<DetailSource>(asked.lookup);
    if (!source) {
      response.writeHead(404).end();
      return;
    }
    presented = { data: presentPpa(source, base) };
  }
  const json = JSON.stringify(presented);
  if (json.length > 1024 && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    response.end(gzipSync(json, { level: 1 }));
  } else {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(json);
  }
}

const server = createServer((request, response) => {
  answer(request, response).catch((error: unknown) => {
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end(String(error));
  });
});
server.keepAliveTimeout = 65_000;
// A free port of the system's choosing, printed when listening: a port picked beforehand may be taken meanwhile by
// another process (the quick forms run side by side).
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening ${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
