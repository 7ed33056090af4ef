// searchLog/zeroResultsReport: `ppa-indexer searches --zero-results` (the report's text and JSON are tested from
// test/unit/indexer/commands/searches.test.ts). Checked against local servers of the test's own: whether the API
// finds a query now (a tiny HTTP server: the request it gets, Sec-GPC included; yes, no, and "cannot say" for an
// error answer, a body without a total, or an API that is not there), and the report read from a Redis (a tiny
// server speaking just enough RESP: the days' sorted sets and hashes), over the days asked, its rows by the privacy
// rule; a Redis that fails a read is a StoreUnreachableError (exit 6).
import { expect } from 'chai';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { EXIT_CODES } from '../../../../indexer/exitCodes.js';
import {
  findsNow,
  StoreUnreachableError,
  zeroResultsReport,
} from '../../../../indexer/searchLog/zeroResultsReport.js';
import { dayKeys } from '../../../../settings/zeroResults.js';

async function listening(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** An API whose list answers `answer(q)` (a status and a body); the requests it got are kept. */
async function fakeApi(answer: (q: string) => { status: number; body: unknown }) {
  const requests: IncomingMessage[] = [];
  const server = createHttpServer((request, response) => {
    requests.push(request);
    const q = new URL(request.url!, 'http://x').searchParams.get('q') ?? '';
    const { status, body } = answer(q);
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  const port = await listening(server);
  return { url: `http://127.0.0.1:${port}/`, requests, close: () => server.close() };
}

/** RESP's forms of a reply. */
const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
const array = (items: string[]) => `*${items.length}\r\n${items.map(bulk).join('')}`;

/**
 * A Redis of sorted sets (key → [member, score][]) and hashes (key → field → value), answering INFO (the client's
 * ready check), ZRANGE … WITHSCORES and HGETALL; `fail` answers those two with an error instead.
 */
async function fakeRedis(
  data: { zsets?: Record<string, [string, number][]>; hashes?: Record<string, Record<string, string>> },
  fail = false,
) {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      for (let command = takeCommand(); command; command = takeCommand()) socket.write(reply(command));
    });
    function takeCommand(): string[] | null {
      const lines = pending.split('\r\n');
      if (!lines[0]?.startsWith('*')) return null;
      const count = Number(lines[0].slice(1));
      if (lines.length < 1 + count * 2 + 1) return null;
      const parts = Array.from({ length: count }, (_, i) => lines[2 + i * 2]!);
      pending = lines.slice(1 + count * 2).join('\r\n');
      return parts;
    }
  });
  function reply([name = '', key = '']: string[]): string {
    switch (name.toUpperCase()) {
      case 'INFO':
        return bulk('# Server\r\nredis_version:7.2.0\r\nloading:0\r\n');
      case 'ZRANGE':
        if (fail) return '-ERR the store is loading\r\n';
        return array((data.zsets?.[key] ?? []).flatMap(([member, score]) => [member, String(score)]));
      case 'HGETALL':
        if (fail) return '-ERR the store is loading\r\n';
        return array(Object.entries(data.hashes?.[key] ?? {}).flat());
      default:
        return '+OK\r\n';
    }
  }
  const port = await listening(server);
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

const NOW = new Date('2026-12-06T15:00:00Z');

describe('indexer/searchLog/zeroResultsReport', () => {
  it('asks the API for one slug of the query, not counted (Sec-GPC), and reads whether it finds any', async () => {
    const api = await fakeApi((q) => ({ status: 200, body: { meta: { total: q === 'kahone' ? 2 : 0 } } }));
    try {
      expect(await findsNow(api.url, 'kahone')).to.equal(true);
      expect(await findsNow(`${api.url}//`, 'café & co')).to.equal(false);
      const [request, second] = api.requests;
      expect(request!.url).to.equal('/api/v1/ppas?per_page=1&fields=slug&q=kahone');
      expect(request!.headers['sec-gpc']).to.equal('1');
      expect(second!.url).to.equal(
        `/api/v1/ppas?per_page=1&fields=slug&q=${encodeURIComponent('café & co')}`,
      );
    } finally {
      api.close();
    }
  });

  it('cannot say (null) for an error answer, a body without a total, or an API that is not there', async () => {
    const api = await fakeApi((q) =>
      q === 'error' ? { status: 503, body: { title: 'overloaded' } } : { status: 200, body: { data: [] } },
    );
    try {
      expect(await findsNow(api.url, 'error')).to.equal(null);
      expect(await findsNow(api.url, 'no total')).to.equal(null);
    } finally {
      api.close();
    }
    expect(await findsNow(api.url, 'gone')).to.equal(null);
  });

  it('reports the queries of the days asked by the privacy rule, each tried on the API', async () => {
    const today = dayKeys('2026-12-06');
    const yesterday = dayKeys('2026-12-05');
    const redis = await fakeRedis({
      zsets: {
        [today.queries]: [
          ['kafeu gorje', 5],
          ['rare', 9],
        ],
        [yesterday.queries]: [['kafeu gorje', 2]],
      },
      hashes: {
        [today.clients]: { 'kafeu gorje': 'c1,c2,c3', rare: 'c1,c2' },
        [yesterday.clients]: { 'kafeu gorje': 'c4,c5,c6,c7' },
      },
    });
    const api = await fakeApi(() => ({ status: 200, body: { meta: { total: 0 } } }));
    try {
      const report = await zeroResultsReport({
        redisUrl: redis.url,
        days: 2,
        limit: 10,
        apiUrl: api.url,
        now: NOW,
      });
      expect(report).to.deep.include({ from: '2026-12-05', to: '2026-12-06', minClients: 3 });
      expect(report.queries).to.have.length(1); // 'rare' had 2 clients: never shown
      expect(report.queries[0]).to.deep.include({
        query: 'kafeu gorje',
        searches: 7,
        days: 2,
        findsNow: false,
      });
      expect(api.requests).to.have.length(1);
      const untried = await zeroResultsReport({ redisUrl: redis.url, days: 1, limit: 10, now: NOW });
      expect(untried.queries.map((row) => row.findsNow)).to.deep.equal([null]);
    } finally {
      redis.close();
      api.close();
    }
  });

  it('fails with exit 6 when the Redis does not give the counts', async () => {
    const redis = await fakeRedis({}, true);
    try {
      let error: unknown;
      await zeroResultsReport({ redisUrl: redis.url, days: 1, limit: 10, now: NOW }).catch(
        (caught: unknown) => (error = caught),
      );
      expect(error).to.be.instanceOf(StoreUnreachableError);
      expect((error as StoreUnreachableError).exitCode).to.equal(EXIT_CODES.storeUnreachable);
      expect(String(error)).to.include('the Redis of REDIS_URL did not answer (ERR the store is loading)');
      expect((error as StoreUnreachableError).hint).to.include('REDIS_URL');
    } finally {
      redis.close();
    }
  });
});
