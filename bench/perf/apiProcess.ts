// The API under test runs in its own process, so its CPU and memory are its own: compiled (`tsc` into a temp
// directory, then `node dist/src/server.js`, as the Docker image runs it) or straight from the sources through
// tsx's loader (`node --import tsx src/server.ts`, quicker to start). Either way the pid is the API's own node
// process, whose peak RSS (VmHWM) is read from /proc before it is stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../tools/services/net.js';
import { profileClockMicros, summariseProfileFile, type ProfileSummary } from './profile.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type ApiMode = 'dist' | 'tsx';

export interface ApiBuild {
  mode: ApiMode;
  /** The entry point node runs. */
  entry: string;
  cleanup(): Promise<void>;
}

/**
 * `tsc -p tsconfig.build.json` into a temp directory (the shared checkout's dist/ is left alone). `source`: another
 * checkout to build instead of this one (e.g. the release before a change, for a before/after run); it uses this
 * checkout's node_modules.
 */
export async function buildApi(mode: ApiMode, source = REPO_ROOT): Promise<ApiBuild> {
  if (mode === 'tsx') {
    return { mode, entry: join(source, 'src/server.ts'), cleanup: async () => undefined };
  }
  const root = await mkdtemp(join(tmpdir(), 'bench-api-'));
  const outDir = join(root, 'dist');
  const code = await runTsc(['-p', join(source, 'tsconfig.build.json'), '--outDir', outDir], source);
  if (code !== 0) {
    await rm(root, { recursive: true, force: true });
    throw new Error(`tsc -p tsconfig.build.json failed (exit ${code})`);
  }
  // What the compiled tree expects around it: ESM package scope, node_modules, dist/mappings, dist/public and
  // dist/schemas (the image has them beside dist/).
  await writeFile(join(root, 'package.json'), '{ "type": "module" }\n');
  await symlink(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  await mkdir(outDir, { recursive: true });
  await symlink(join(source, 'mappings'), join(outDir, 'mappings'), 'dir');
  await symlink(join(source, 'public'), join(outDir, 'public'), 'dir');
  // An API from before the reconciliation services (a before/after) has no schemas/: it reads none.
  if (existsSync(join(source, 'schemas')))
    await symlink(join(source, 'schemas'), join(outDir, 'schemas'), 'dir');
  return {
    mode,
    entry: join(outDir, 'src/server.js'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** The project's tsc, run in `cwd` (the repository root by default); resolves with its exit code. */
async function runTsc(args: string[], cwd = REPO_ROOT): Promise<number | null> {
  const tsc = spawn(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), ...args], {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code] = (await once(tsc, 'exit')) as [number | null];
  return code;
}

/**
 * Compiles one more source file of the repository (e.g. a benchmark's own server) into a compiled build, beside
 * the API's modules it imports; returns the compiled file's path (a tsx build: the source's own, run as it is).
 */
export async function compileBeside(build: ApiBuild, source: string): Promise<string> {
  if (build.mode === 'tsx') return join(REPO_ROOT, source);
  const outDir = dirname(dirname(build.entry)); // <root>/dist (the entry is dist/src/server.js)
  const config = join(dirname(outDir), `tsconfig.${basename(source, '.ts')}.json`);
  await writeFile(
    config,
    JSON.stringify({
      extends: join(REPO_ROOT, 'tsconfig.build.json'),
      compilerOptions: { outDir, rootDir: REPO_ROOT },
      include: [join(REPO_ROOT, source)],
      exclude: [],
    }),
  );
  const code = await runTsc(['-p', config]);
  if (code !== 0) throw new Error(`compiling ${source} failed (exit ${code})`);
  return join(outDir, source.replace(/\.ts$/, '.js'));
}

export interface ApiProcessOptions {
  build: ApiBuild;
  alias: string;
  esUrl: string;
  logLevel: string;
  /** Write a V8 CPU profile into this directory when the process exits. */
  cpuProfileDir?: string;
  /** With cpuProfileDir: the sampling interval (µs; node's default is 1000). */
  cpuProfileIntervalMicros?: number;
  /** --cpu-split: start it under `taskset -c <cpu>` (taskset execs node, so the pid is still node's). */
  cpu?: number;
  /** More environment for the API (e.g. RESPONSE_CACHE_MB). */
  env?: Record<string, string>;
}

export interface ApiProcess {
  url: string;
  pid: number;
  /** Peak resident set so far (VmHWM), in MiB. */
  peakRssMb(): Promise<number>;
  /** SIGTERM (the API's graceful shutdown), then waits for the exit. */
  stop(): Promise<void>;
}

const BENCH_ENV_DROPPED = ['REDIS_URL', 'PUBLIC_BASE_URL', 'PORT', 'HOST', 'ES_INDEX', 'LOG_LEVEL'];

export async function startApi(options: ApiProcessOptions): Promise<ApiProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of BENCH_ENV_DROPPED) delete env[name];
  Object.assign(env, {
    HOST: '127.0.0.1',
    PORT: String(port),
    ES_URL: options.esUrl,
    ES_INDEX: options.alias,
    // The rate limit out of the way: in memory (no REDIS_URL), a million requests a second per client.
    RATE_LIMIT_POINTS: '1000000',
    RATE_LIMIT_WINDOW_S: '1',
    // A loaded shared machine must not turn slow answers into 503s: the benchmark measures, it does not judge.
    ES_REQUEST_TIMEOUT_MS: '30000',
    LOG_LEVEL: options.logLevel,
    ...options.env,
  });
  const nodeArgs = [
    // BENCH_API_NODE_ARGS: node flags for the API process only (e.g. --heap-growing-percent=0, V8's own garbage
    // collector growth instead of the API's setting; NODE_OPTIONS may not carry V8 flags like that one).
    ...(process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ...(options.build.mode === 'tsx' ? ['--import', 'tsx'] : []),
    ...(options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : []),
    ...(options.cpuProfileDir && options.cpuProfileIntervalMicros
      ? ['--cpu-prof-interval', String(options.cpuProfileIntervalMicros)]
      : []),
    options.build.entry,
  ];
  // stdout (one log line per request at info) goes to /dev/null: written, as in production, but not read.
  const [command, args] =
    options.cpu === undefined
      ? [process.execPath, nodeArgs]
      : ['taskset', ['-c', String(options.cpu), process.execPath, ...nodeArgs]];
  const child: ChildProcess = spawn(command, args, {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}) on start: ${stderr}`);
    try {
      const response = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the API was not ready within 60 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const pid = child.pid!;
  return {
    url,
    pid,
    async peakRssMb() {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
      return kb / 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The newest main-thread .cpuprofile in a directory. Node writes one a thread (CPU.<date>.<time>.<pid>.<thread>.<n>),
 * and an API run from its sources has tsx's module loader on a thread of its own (1), which would sort last.
 */
export async function newestProfile(directory: string): Promise<string | undefined> {
  const names = (await readdir(directory)).filter((name) => /\.0\.\d+\.cpuprofile$/.test(name)).sort();
  return names.length > 0 ? join(directory, names[names.length - 1]!) : undefined;
}

/** What `profiledApiRun` does with the profile once summarised. */
export interface ProfileKeeping {
  /** Functions and areas in the summary. */
  top: number;
  /** The .cpuprofile stays on disk (its path logged), else it is deleted. */
  keep: boolean;
  /** Names the profile in the log line. */
  label: string;
  log: (line: string) => void;
}

/**
 * An API of its own under node --cpu-prof, warmed by `warm`, then profiled over `measured` alone (start-up and
 * warm-up stay out of the summary); undefined when node wrote no profile.
 */
export async function profiledApiRun(
  options: Omit<ApiProcessOptions, 'cpuProfileDir'>,
  steps: { warm: (url: string) => Promise<unknown>; measured: (url: string) => Promise<unknown> },
  keeping: ProfileKeeping,
): Promise<ProfileSummary | undefined> {
  const profileDir = await mkdtemp(join(tmpdir(), 'api-profile-'));
  const profiled = await startApi({ ...options, cpuProfileDir: profileDir });
  let since = 0;
  try {
    await steps.warm(profiled.url);
    since = profileClockMicros();
    await steps.measured(profiled.url);
  } finally {
    await profiled.stop();
  }
  const file = await newestProfile(profileDir);
  const summary = file ? await summariseProfileFile(file, keeping.top, since) : undefined;
  if (keeping.keep) keeping.log(`${keeping.label}: the profile is in ${file ?? profileDir}`);
  else await rm(profileDir, { recursive: true, force: true });
  return summary;
}
