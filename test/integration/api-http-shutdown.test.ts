// The server process (src/server.ts) as operators run it: a bad variable stops it with exit 1 and a message
// naming the variable; SIGTERM stops accepting, lets the request in flight finish, and exits 0.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ES_URL, freePort, uniqueName } from '../support/services.js';
import { startTcpProxy, targetOf, type TcpProxy } from '../../tools/services/tcpProxy.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Child {
  process: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { process: child, stdout, stderr, exited };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('api http: the server process', function () {
  this.timeout(120_000);
  let proxy: TcpProxy | undefined;
  let child: Child | undefined;

  afterEach(async () => {
    if (child && child.process.exitCode === null) {
      child.process.kill('SIGKILL');
      await child.exited;
    }
    child = undefined;
    await proxy?.close();
    proxy = undefined;
  });

  it('exits 1 with a message naming a bad variable', async () => {
    child = startServer({ PORT: 'eighty', ES_URL, LOG_LEVEL: 'silent' });
    expect(await child.exited).to.equal(1);
    expect(child.stderr.join('')).to.include('PORT').and.to.include('eighty');
  });

  it('on SIGTERM stops accepting, finishes the request in flight, closes its clients and exits 0', async () => {
    // Every request to Elasticsearch takes 1.5 s through this proxy: /health/ready is slow but answers.
    proxy = await startTcpProxy(targetOf(ES_URL));
    proxy.delayMs = 1500;
    const port = await freePort();
    child = startServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      ES_URL: proxy.url,
      ES_INDEX: uniqueName('api-shutdown'),
      ES_REQUEST_TIMEOUT_MS: '10000',
      LOG_LEVEL: 'info',
    });
    const running = child;
    await waitFor(() => running.stdout.join('').includes('"msg":"listening"'), 'the listening line');
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/health/live`)).status).to.equal(200);

    const started = Date.now();
    const inFlight = fetch(`${base}/health/ready`).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      ms: Date.now() - started,
    }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    running.process.kill('SIGTERM');
    await waitFor(() => running.stdout.join('').includes('shutting down'), 'the shutdown line', 5000);

    // A new connection is refused while the old request is still being answered.
    let refused: unknown;
    try {
      await fetch(`${base}/health/live`, { headers: { Connection: 'close' } });
    } catch (error) {
      refused = error;
    }
    expect(refused, 'a request after SIGTERM').to.be.instanceOf(Error);

    const answer = await inFlight;
    // Its answer came through the proxy's delay (a timer may fire a little early): it was not cut short.
    expect(answer.ms, 'the in-flight request got its full answer').to.be.at.least(proxy.delayMs - 100);
    expect(answer.status).to.equal(503); // the alias does not exist: the answer is complete all the same
    expect(answer.body.elasticsearch).to.deep.include({ cluster: true, alias: false });

    expect(await running.exited).to.equal(0);
    const log = running.stdout.join('');
    expect(log).to.include('"msg":"stopped"');
    expect(log).to.include('"forced":false');
  });

  it('exits 0 on SIGINT too', async () => {
    const port = await freePort();
    child = startServer({ PORT: String(port), HOST: '127.0.0.1', ES_URL, LOG_LEVEL: 'info' });
    const running = child;
    await waitFor(() => running.stdout.join('').includes('"msg":"listening"'), 'the listening line');
    running.process.kill('SIGINT');
    expect(await running.exited).to.equal(0);
  });
});
