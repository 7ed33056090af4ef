// The shipped nginx config under a real nginx, in front of two real API instances (src/server.ts) sharing a
// private Redis, as docker-compose.yml wires them: deploy/nginx/nginx.conf with only its `listen` line and its two
// upstream `server` lines swapped for local addresses, the APIs with TRUST_PROXY_HOPS=1.
//
// What proves that the rate limit sees the client's address and not the proxy's: on Linux all of 127.0.0.0/8 is
// loopback, so the test's clients connect from distinct local addresses (127.0.0.3, 127.0.0.4, …) while nginx
// always reaches the APIs from 127.0.0.1. Each client address gets its own quota through the proxy, a forged
// X-Forwarded-For buys nothing, and the proxy's own address is charged nothing at all.
//
// Needs nginx (Debian: apt-get install nginx-light): without it the suite is pending outside CI, and fails under
// CI=true.
import { expect } from 'chai';
import { SHUTDOWN_GRACE_MS } from '../../src/config.js';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from '../../src/config.js';
import { MAX_FORM_BODY_BYTES } from '../../src/http/formBody.js';
import { OVERLOADED_PROBLEM_TYPE } from '../../src/http/problem.js';
import {
  type Answer,
  get,
  localNginxConf,
  type Process,
  requireNginx,
  root,
  spawnCollecting,
  startNginx,
  stop,
  waitFor,
} from '../support/nginx.js';
import { RedisServer } from '../support/redisServer.js';
import { ES_URL, deleteIndices, freePort, testEsClient, uniqueName } from '../support/services.js';

const POINTS = 6;

const remaining = (answer: Answer): number => Number(answer.headers['x-ratelimit-remaining']);

/** A raw HTTP exchange on a fresh connection: what was answered before the server closed it ('' for none). */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(answer) : reject(error),
    );
    socket.on('close', () => resolve(answer));
    socket.setTimeout(10_000, () => socket.destroy(new Error('raw exchange timed out')));
    socket.write(text);
  });
}

describe('deploy: the shipped nginx config in front of two API instances (real nginx, real Redis)', function () {
  this.timeout(60_000);

  const es = testEsClient();
  const alias = uniqueName('deploy-nginx');
  let redis: RedisServer | undefined;
  let dir = '';
  let nginx: Process | undefined;
  const apis: Process[] = [];
  let apiPorts: number[] = [];
  let proxyPort = 0;
  let requestCounter = 0;

  const accessLog = (): string[] => readFileSync(join(dir, 'stdout.log'), 'utf8').split('\n').filter(Boolean);

  /** The API writes its request log line asynchronously: wait until every one of these ids has reached us. */
  async function logsFor(requestIds: string[]): Promise<void> {
    const deadline = Date.now() + 5_000;
    const logged = (id: string) => apis.some((api) => api.output.some((line) => line.includes(`"${id}"`)));
    while (!requestIds.every(logged) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The client address the API logged for this request id (its request log line's `ip`). */
  function loggedIp(requestId: string): string | undefined {
    const line = apis.flatMap((api) => api.output).find((entry) => entry.includes(`"${requestId}"`));
    return line ? (JSON.parse(line) as { ip?: string }).ip : undefined;
  }

  /** The API instance (0 or 1) whose log names this request id; -1 when none does, -2 when both do. */
  function servedBy(requestId: string): number {
    const hits = apis.map((api) => api.output.some((line) => line.includes(`"${requestId}"`)));
    if (hits[0] && hits[1]) return -2;
    return hits.indexOf(true);
  }

  // One kept-alive connection per client address: one nginx worker then serves all of that client's requests,
  // and its round robin alternates the replicas however many workers `worker_processes auto` started.
  const agents = new Map<string, Agent>();

  function viaProxy(path: string, localAddress: string, headers: Record<string, string> = {}) {
    const requestId = `deploy-nginx-${process.pid}-${++requestCounter}`;
    let agent = agents.get(localAddress);
    if (!agent) {
      agent = new Agent({ keepAlive: true, maxSockets: 1 });
      agents.set(localAddress, agent);
    }
    return get(proxyPort, path, {
      localAddress,
      agent,
      headers: { 'X-Request-Id': requestId, ...headers },
    }).then((answer) => ({ ...answer, requestId }));
  }

  before(async function () {
    this.timeout(120_000);
    const nginxBin = requireNginx(this);

    // The API reads the alias; an empty index with the project's mapping makes /health/ready and the list answer.
    const mapping = JSON.parse(readFileSync(join(root, 'mappings/ppas.json'), 'utf8'));
    await es.indices.create({ index: `${alias}-1`, ...mapping, aliases: { [alias]: {} } });

    redis = await RedisServer.start();
    apiPorts = [await freePort(), await freePort()];
    proxyPort = await freePort();
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !(CONFIG_VARIABLES as string[]).includes(name)),
    );
    for (const port of apiPorts) {
      const api = spawnCollecting(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        ...inherited,
        PORT: String(port),
        HOST: '127.0.0.1',
        ES_URL,
        ES_INDEX: alias,
        REDIS_URL: redis.url,
        RATE_LIMIT_POINTS: String(POINTS),
        RATE_LIMIT_WINDOW_S: '300',
        TRUST_PROXY_HOPS: '1',
        // As docker-compose.yml sets it: links are built on it, never on a Host a client sent.
        PUBLIC_BASE_URL: `http://127.0.0.1:${proxyPort}`,
        LOG_LEVEL: 'info',
      });
      apis.push(api);
    }
    await Promise.all(
      apis.map((api, i) =>
        waitFor(
          `API on port ${apiPorts[i]}`,
          api,
          async () => (await get(apiPorts[i] ?? 0, '/health/live')).status === 200,
          60_000,
        ),
      ),
    );

    dir = mkdtempSync(join(tmpdir(), 'ppa-deploy-nginx-'));
    chmodSync(dir, 0o755);
    const conf = localNginxConf(
      readFileSync(join(root, 'deploy/nginx/nginx.conf'), 'utf8'),
      proxyPort,
      apiPorts,
    );
    nginx = await startNginx(nginxBin, dir, conf, proxyPort);
  });

  after(async function () {
    this.timeout(60_000);
    for (const agent of agents.values()) agent.destroy();
    await stop(nginx, 'SIGQUIT');
    await Promise.all(apis.map((api) => stop(api, 'SIGTERM')));
    await redis?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await deleteIndices(es, alias).catch(() => undefined);
    await es.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      console.log(`      nginx log:\n${[...(nginx?.output ?? []), ...accessLog()].slice(-20).join('\n')}`);
      apis.forEach((api, i) => console.log(`      API ${i + 1} log:\n${api.output.slice(-20).join('\n')}`));
    }
  });

  it('changes nothing in the shipped config but the listen line and the upstream addresses', () => {
    const shipped = readFileSync(join(root, 'deploy/nginx/nginx.conf'), 'utf8').split('\n');
    const used = readFileSync(join(dir, 'nginx.conf'), 'utf8').split('\n');
    expect(used).to.have.length(shipped.length);
    const changed = shipped.filter((line, i) => line !== used[i]).map((line) => line.trim());
    expect(changed).to.have.length(4);
    expect(changed.filter((line) => line === 'listen 8080;')).to.have.length(1);
    expect(changed.filter((line) => line === 'listen 8080 default_server;')).to.have.length(1);
    expect(changed.filter((line) => /^server api-1:3000 /.test(line))).to.have.length(1);
    expect(changed.filter((line) => /^server api-2:3000 /.test(line))).to.have.length(1);
  });

  it(`gives one client exactly ${POINTS} answers across both replicas, then 429: one quota, shared through Redis`, async () => {
    const answers = [];
    for (let i = 0; i < POINTS + 2; i++) answers.push(await viaProxy('/api/v1/openapi.json', '127.0.0.3'));
    expect(answers.map((answer) => answer.status)).to.deep.equal([...Array(POINTS).fill(200), 429, 429]);
    // One counter, whichever replica answered: remaining goes POINTS-1, POINTS-2, …, 0.
    expect(answers.slice(0, POINTS).map(remaining)).to.deep.equal([...Array(POINTS).keys()].reverse());
    for (const refused of answers.slice(POINTS)) {
      expect(Number(refused.headers['retry-after'])).to.be.at.least(1);
      expect(refused.headers['content-type']).to.match(/^application\/problem\+json/);
    }
    // Both replicas served some of them: the API's own log line names each request id.
    await logsFor(answers.map((answer) => answer.requestId));
    const servers = answers.map((answer) => servedBy(answer.requestId));
    expect(servers, 'the replica that logged each request id').to.not.include(-1).and.not.include(-2);
    // Round robin on one connection: the replicas take turns.
    expect(servers.filter((server) => server === 0)).to.have.length((POINTS + 2) / 2);
    console.log(`      replicas that answered, in order: ${servers.map((i) => i + 1).join(' ')}`);
    // And each replica keyed them on the client's address, not on nginx's.
    expect(answers.map((answer) => loggedIp(answer.requestId))).to.deep.equal(
      Array(POINTS + 2).fill('127.0.0.3'),
    );
  });

  it('does not give that client a fresh quota for a forged X-Forwarded-For', async () => {
    for (const forged of ['203.0.113.7', '127.0.0.9', '203.0.113.7, 198.51.100.1']) {
      const answer = await viaProxy('/api/v1/openapi.json', '127.0.0.3', { 'X-Forwarded-For': forged });
      expect(answer.status, `with X-Forwarded-For: ${forged}`).to.equal(429);
      await logsFor([answer.requestId]);
      expect(loggedIp(answer.requestId), `the address the API keyed on, for ${forged}`).to.equal('127.0.0.3');
    }
  });

  it('gives another client address behind the same proxy its own quota, whatever it claims to be', async () => {
    const first = await viaProxy('/api/v1/openapi.json', '127.0.0.4');
    expect(first.status).to.equal(200);
    expect(remaining(first)).to.equal(POINTS - 1);
    // Claiming to be the exhausted client neither blocks it nor charges that client: it is keyed on 127.0.0.4.
    const claiming = await viaProxy('/api/v1/openapi.json', '127.0.0.4', { 'X-Forwarded-For': '127.0.0.3' });
    expect(claiming.status).to.equal(200);
    expect(remaining(claiming)).to.equal(POINTS - 2);
  });

  it('charges nothing to the proxy’s own address (127.0.0.1, the peer the APIs see for every request)', async () => {
    // Straight to a replica from 127.0.0.1 without X-Forwarded-For: keyed on the socket address, the very
    // address nginx connects from. Had the limit counted the proxy, the requests above would have used it up.
    for (const port of apiPorts) {
      const direct = await get(port, '/api/v1/openapi.json', { localAddress: '127.0.0.1' });
      expect(direct.status).to.equal(200);
      expect(remaining(direct), `remaining for 127.0.0.1 on port ${port}`).to.be.at.least(POINTS - 2);
    }
  });

  it('passes the API’s headers through unchanged, and If-None-Match back to it (304)', async () => {
    const direct = await get(apiPorts[0] ?? 0, '/api/v1/openapi.json', { localAddress: '127.0.0.5' });
    const proxied = await viaProxy('/api/v1/openapi.json', '127.0.0.6');
    expect(proxied.status).to.equal(200);
    const hopByHop = new Set([
      'date',
      'connection',
      'keep-alive',
      'transfer-encoding',
      'server',
      'x-request-id',
    ]);
    const rateLimit = new Set(['ratelimit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
    for (const [name, value] of Object.entries(direct.headers)) {
      if (hopByHop.has(name)) continue;
      expect(proxied.headers, `header ${name}`).to.have.property(name);
      if (!rateLimit.has(name)) expect(proxied.headers[name], `header ${name}`).to.deep.equal(value);
    }
    expect(proxied.headers['x-request-id']).to.equal(proxied.requestId);
    expect(proxied.body).to.equal(direct.body);

    const etag = proxied.headers.etag;
    expect(etag, 'ETag').to.be.a('string');
    const revalidated = await viaProxy('/api/v1/openapi.json', '127.0.0.6', {
      'If-None-Match': String(etag),
    });
    expect(revalidated.status).to.equal(304);
    expect(remaining(revalidated), '304s count').to.equal(POINTS - 2);
  });

  it('builds absolute links on PUBLIC_BASE_URL, ignoring a forged X-Forwarded-Host', async () => {
    const answer = await viaProxy('/api/v1/ppas?per_page=1', '127.0.0.7', {
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'gopher',
    });
    expect(answer.status, answer.body).to.equal(200);
    const body = JSON.parse(answer.body) as { links: { self: string } };
    expect(
      body.links.self.startsWith(`http://127.0.0.1:${proxyPort}/api/v1/ppas?`),
      body.links.self,
    ).to.equal(true);
  });

  it('refuses /health/* and /metrics to clients outside the private networks (403), whatever the case', async () => {
    for (const path of ['/health/ready', '/health/live', '/HEALTH/live', '/metrics', '/%68ealth/live']) {
      const answer = await viaProxy(path, '127.0.0.3');
      expect(answer.status, path).to.equal(403);
    }
    // The replicas themselves still answer their probes.
    expect((await get(apiPorts[0] ?? 0, '/health/ready')).status).to.equal(200);
  });

  it('closes the connection for any other Host (444): no link, cache entry or log line for evil.example', async () => {
    const answer = await rawExchange(
      proxyPort,
      'GET /api/v1/ppas?per_page=1 HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
    );
    expect(answer).to.equal('');
    const ours = await rawExchange(
      proxyPort,
      `GET /api/v1/ppas?per_page=1 HTTP/1.1\r\nHost: 127.0.0.1:${proxyPort}\r\nConnection: close\r\n\r\n`,
    );
    expect(ours).to.match(/^HTTP\/1\.1 200 /);
  });

  it('answers an HTTP/1.0 request without Host, its links on PUBLIC_BASE_URL', async () => {
    const answer = await rawExchange(proxyPort, 'GET /api/v1/ppas?per_page=1 HTTP/1.0\r\n\r\n');
    expect(answer).to.match(/^HTTP\/1\.1 200 /);
    expect(answer).to.contain(`"self":"http://127.0.0.1:${proxyPort}/api/v1/ppas?per_page=1&page=1"`);
  });

  it('serves the longest legal request (2,048 bytes of query string, the largest headers) with a 200', async () => {
    const query =
      `q=${'%E5%8C%97'.repeat(200)}&developer=${'d'.repeat(100)}&` +
      `technology=${Array.from({ length: 20 }, (_, i) => `t${i}`).join(',')}&per_page=1&page=2`;
    const answer = await viaProxy(`/api/v1/ppas?${query}`, '127.0.0.9');
    expect(answer.status, answer.body.slice(0, 300)).to.equal(200);
  });

  it('passes a reconciliation batch by POST past 16 KB, as the API reads it; refuses one past its bound (413)', async () => {
    const queries = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`q${i}`, { query: `${'é'.repeat(190)} ${i}`, limit: 1 }]),
    );
    const body = new URLSearchParams({ queries: JSON.stringify(queries) }).toString();
    expect(Buffer.byteLength(body))
      .to.be.above(16 * 1024)
      .and.below(MAX_FORM_BODY_BYTES);
    const url = `http://127.0.0.1:${proxyPort}/api/v1/reconcile/ppas`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const answer = await fetch(url, { method: 'POST', headers: form, body });
    expect(answer.status, await answer.clone().text()).to.equal(200);
    expect(Object.keys((await answer.json()) as object)).to.have.length(20);
    const past = await fetch(url, {
      method: 'POST',
      headers: form,
      body: `queries=${'a'.repeat(MAX_FORM_BODY_BYTES + 1024)}`,
    });
    expect(past.status).to.equal(413);
  });

  it('logs the request id the API answered with, also when the client sent none', async () => {
    const answer = await get(proxyPort, '/api/v1/openapi.json', { localAddress: '127.0.0.10' });
    const id = String(answer.headers['x-request-id']);
    expect(id).to.match(/^[0-9a-f-]{36}$/);
    const deadline = Date.now() + 3000;
    while (!accessLog().some((line) => line.includes(`request_id=${id}`)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(accessLog().filter((line) => line.includes(`request_id=${id}`))).to.have.length(1);
  });

  it('logs the client address and the replica that answered, one line per request', () => {
    const lines = accessLog().filter((line) => line.includes('"GET /api/v1/openapi.json'));
    expect(lines.length).to.be.at.least(POINTS + 2);
    expect(lines.some((line) => line.startsWith('127.0.0.3 '))).to.equal(true);
    const upstreams = new Set(lines.map((line) => /upstream=(\S+)/.exec(line)?.[1]));
    expect([...upstreams]).to.include.members(apiPorts.map((port) => `127.0.0.1:${port}`));
  });

  it('stops a replica cleanly on SIGTERM while nginx holds connections to it, and sends its traffic to the other', async () => {
    const stopping = apis[1] as Process;
    const exited = once(stopping.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const started = Date.now();
    stopping.child.kill('SIGTERM');
    const [code, signal] = await exited;
    expect({ code, signal }, 'exit of the stopped replica').to.deep.equal({ code: 0, signal: null });
    // Idle keep-alive connections are closed at once: they never hold the replica until its grace for requests in
    // flight runs out (then it would close them by force), which is the one deadline this stop has.
    expect(Date.now() - started, 'ms to stop with idle keep-alive connections from nginx').to.be.below(
      SHUTDOWN_GRACE_MS,
    );

    // nginx learns of it from a refused connection and retries the request on the other replica.
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await viaProxy('/api/v1/openapi.json', '127.0.0.8'));
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200]);
    expect(answers.map(remaining)).to.deep.equal([POINTS - 1, POINTS - 2, POINTS - 3, POINTS - 4]);
    await logsFor(answers.map((answer) => answer.requestId));
    expect(answers.map((answer) => servedBy(answer.requestId))).to.deep.equal([0, 0, 0, 0]);
  });
});

describe('deploy: the shipped nginx config keeps replicas in rotation whatever a client provokes', function () {
  this.timeout(60_000);
  // Two stand-in upstreams (plain Node servers): any request whose path holds "oversized" gets a 20 KB header,
  // more than any proxy buffer; others a small 200. The API itself never sends such a header (it stays under
  // 8 KB): these stand in for whatever a client might provoke one day.
  const servers: Server[] = [];
  const hits = [0, 0];
  /** The headers of the last request a stand-in received. */
  let lastHeaders: IncomingHttpHeaders = {};
  let dir = '';
  let nginx: Process | undefined;
  let proxyPort = 0;

  before(async function () {
    const nginxBin = requireNginx(this);
    const ports: number[] = [];
    for (const index of [0, 1]) {
      const server = createHttpServer((req, res) => {
        hits[index] = (hits[index] ?? 0) + 1;
        lastHeaders = req.headers;
        if (req.url?.includes('overloaded')) {
          // What an API instance at capacity answers (src/http/problem.ts, OverloadedError).
          res.writeHead(503, { 'Content-Type': 'application/problem+json', 'Retry-After': '2' });
          res.end(
            JSON.stringify({ type: OVERLOADED_PROBLEM_TYPE, title: 'Service overloaded', status: 503 }),
          );
          return;
        }
        if (req.url?.includes('oversized')) res.setHeader('X-Filler', 'x'.repeat(20_000));
        res.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      ports.push((server.address() as AddressInfo).port);
    }
    dir = mkdtempSync(join(tmpdir(), 'ppa-deploy-nginx-stub-'));
    chmodSync(dir, 0o755);
    proxyPort = await freePort();
    const conf = localNginxConf(
      readFileSync(join(root, 'deploy/nginx/nginx.conf'), 'utf8'),
      proxyPort,
      ports,
    );
    nginx = await startNginx(nginxBin, dir, conf, proxyPort);
  });

  after(async () => {
    await stop(nginx, 'SIGQUIT');
    for (const server of servers) server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes an overloaded 503 and its Retry-After through, and never tries the other replica with it', async () => {
    hits[0] = 0;
    hits[1] = 0;
    for (let i = 0; i < 8; i++) {
      const answer = await get(proxyPort, `/api/v1/ppas?overloaded=${i}`);
      expect(answer.status).to.equal(503);
      expect(answer.headers['retry-after']).to.equal('2');
      expect(JSON.parse(answer.body)).to.include({
        type: OVERLOADED_PROBLEM_TYPE,
        title: 'Service overloaded',
      });
    }
    // Each request reached one replica once: no retry of a 503 elsewhere.
    expect((hits[0] ?? 0) + (hits[1] ?? 0)).to.equal(8);
    // Both replicas are still in rotation after answering 503s.
    expect(hits[0]).to.be.greaterThan(0);
    expect(hits[1]).to.be.greaterThan(0);
  });

  it('retries on the other replica only when a connection fails: never a timeout or a 5xx answer', () => {
    const conf = readFileSync(join(root, 'deploy/nginx/nginx.conf'), 'utf8');
    const directives = [...conf.matchAll(/^\s*proxy_next_upstream\s+([^;]+);/gm)].map((match) =>
      match[1]!.trim(),
    );
    // (A slow answer is not sent again: the read timeout is 15 s, too long to wait for in this suite, so it is
    // checked here on the directive that would send it.)
    expect(directives).to.deep.equal(['error']);
  });

  it('drops a client’s traceparent and tracestate (the API would follow them behind TRUST_PROXY_HOPS), nothing else', async () => {
    const answer = await get(proxyPort, '/api/v1/ppas?traced', {
      headers: {
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        tracestate: 'vendor=chosen',
        'X-Request-Id': 'nginx-trace-headers',
      },
    });
    expect(answer.status).to.equal(200);
    expect(lastHeaders).to.not.have.property('traceparent');
    expect(lastHeaders).to.not.have.property('tracestate');
    expect(lastHeaders['x-request-id']).to.equal('nginx-trace-headers');
  });

  it('six oversized answers (502) take no replica out: the next requests reach both', async () => {
    for (let i = 0; i < 6; i++) {
      const answer = await get(proxyPort, `/api/v1/ppas?oversized=${i}`);
      expect(answer.status, `oversized answer ${i + 1}`).to.equal(502);
    }
    hits[0] = 0;
    hits[1] = 0;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await get(proxyPort, '/api/v1/ppas')).status);
    expect(statuses).to.deep.equal(Array(10).fill(200));
    expect(hits[0], 'first replica still in rotation').to.be.greaterThan(0);
    expect(hits[1], 'second replica still in rotation').to.be.greaterThan(0);
  });
});
