// Running the shipped nginx config and API processes in tests: nginx found on PATH (or pending outside CI, naming
// the package), deploy/nginx/nginx.conf with only its listen and upstream lines made local, child processes that a
// dying run does not leave behind, and plain HTTP requests from a chosen local address.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, closeSync, constants, openSync, writeFileSync } from 'node:fs';
import { type Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

export function findNginx(): string | undefined {
  const dirs = [
    ...(process.env.PATH ?? '').split(':'),
    '/usr/sbin',
    '/usr/local/sbin',
    '/usr/local/nginx/sbin',
  ];
  for (const dir of dirs.filter(Boolean)) {
    try {
      accessSync(join(dir, 'nginx'), constants.X_OK);
      return join(dir, 'nginx');
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * deploy/nginx/nginx.conf with the listen lines and the upstream server host:port swapped, nothing else.
 * Throws when the file no longer has exactly two `listen 8080…;` lines (the refusing default server and ours)
 * and the two `server api-N:3000` lines.
 */
export function localNginxConf(conf: string, listenPort: number, apiPorts: number[]): string {
  let out = conf;
  const listens = out.match(/^(\s*)listen 8080( default_server)?;$/gm) ?? [];
  if (listens.length !== 2) throw new Error(`expected two "listen 8080…;" lines, found ${listens.length}`);
  out = out.replace(/^(\s*)listen 8080( default_server)?;$/gm, `$1listen 127.0.0.1:${listenPort}$2;`);
  const servers = out.match(/^\s*server api-\d+:3000\b/gm) ?? [];
  if (servers.length !== apiPorts.length) {
    throw new Error(`expected ${apiPorts.length} upstream server lines, found ${servers.length}`);
  }
  apiPorts.forEach((port, i) => {
    out = out.replace(new RegExp(`^(\\s*)server api-${i + 1}:3000\\b`, 'm'), `$1server 127.0.0.1:${port}`);
  });
  return out;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function get(
  port: number,
  path: string,
  options: { localAddress?: string; headers?: Record<string, string>; agent?: Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: options.headers,
        localAddress: options.localAddress,
        agent: options.agent ?? false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`GET ${path} on port ${port} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

export interface Process {
  child: ChildProcess;
  output: string[];
}

// A run that dies half-way must not leave nginx or an API behind.
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function spawnCollecting(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = root,
): Process {
  const child = track(spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const output: string[] = [];
  const collect = (chunk: Buffer): void => {
    output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return { child, output };
}

export async function waitFor(
  what: string,
  process: Process,
  probe: () => Promise<boolean>,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (process.child.exitCode !== null || process.child.signalCode !== null) {
      throw new Error(
        `${what} exited (${process.child.exitCode ?? process.child.signalCode}):\n${process.output.join('\n')}`,
      );
    }
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`${what} did not come up in ${timeoutMs} ms:\n${process.output.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function stop(process: Process | undefined, signal: NodeJS.Signals): Promise<void> {
  const child = process?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export const MISSING_NGINX =
  'nginx is not installed: apt-get install -y nginx-light (this test runs the shipped config under it)';

/** The nginx binary; without one the suite is pending (naming the package), or fails under CI=true. */
export function requireNginx(context: Mocha.Context): string {
  const nginxBin = findNginx();
  if (nginxBin) return nginxBin;
  if (process.env.CI === 'true') throw new Error(MISSING_NGINX);
  const suite = context.test?.parent;
  if (suite) suite.title += ` — PENDING: ${MISSING_NGINX}`;
  context.skip();
}

/** nginx on `conf` (a whole config), its prefix in `dir`, its access log in dir/stdout.log. */
export async function startNginx(
  nginxBin: string,
  dir: string,
  conf: string,
  port: number,
): Promise<Process> {
  writeFileSync(join(dir, 'nginx.conf'), conf);
  // The access log goes to /dev/stdout, which nginx opens by path: that works on a pipe or a file (as in a
  // container) but not on the socket Node would give a child, so stdout is a file here.
  const stdout = openSync(join(dir, 'stdout.log'), 'a');
  const child = track(
    spawn(
      nginxBin,
      [
        '-e',
        'stderr',
        '-p',
        `${dir}/`,
        '-c',
        join(dir, 'nginx.conf'),
        '-g',
        `daemon off; pid ${join(dir, 'nginx.pid')};`,
      ],
      { cwd: dir, stdio: ['ignore', stdout, 'pipe'] },
    ),
  );
  closeSync(stdout);
  const started: Process = { child, output: [] };
  child.stderr?.on('data', (chunk: Buffer) =>
    started.output.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
  );
  await waitFor('nginx', started, () => accepts(port), 15_000);
  return started;
}
