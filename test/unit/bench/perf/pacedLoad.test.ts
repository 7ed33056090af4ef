import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runEvenlyPaced } from '../../../../bench/perf/pacedLoad.js';
import type { LoadTarget } from '../../../../bench/perf/load.js';

describe('bench/perf/pacedLoad: the raw side at a given rate, evenly spaced', () => {
  let server: http.Server;
  let url: string;
  const seen: { method: string; path: string; body: string }[] = [];

  before(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        seen.push({ method: request.method ?? '', path: request.url ?? '', body });
        response.statusCode = request.url === '/missing' ? 404 : 200;
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the target’s requests (method, path, body) and counts answers that are not 2xx as errors', async () => {
    seen.length = 0;
    const target: LoadTarget = {
      side: 'raw',
      url,
      requests: [
        { kind: 'list_q', method: 'POST', path: '/ppas/_search', body: '{"size":1}' },
        { kind: 'detail', method: 'GET', path: '/missing' },
      ],
    };
    const result = await runEvenlyPaced(target, { connections: 1, ratePerSecond: 50, durationSeconds: 0.2 });
    expect(result.ok + result.errors).to.equal(seen.length);
    expect(result.ok).to.be.greaterThan(0);
    expect(result.errors).to.equal(seen.filter((request) => request.path === '/missing').length);
    expect(result.latencies).to.have.length(result.ok);
    expect(result.latencies).to.deep.equal([...result.latencies].sort((a, b) => a - b));
    expect(seen[0]).to.deep.equal({ method: 'POST', path: '/ppas/_search', body: '{"size":1}' });
    expect(seen[1]).to.deep.include({ method: 'GET', path: '/missing' });
  });
});
