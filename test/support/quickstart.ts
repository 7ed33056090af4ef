// `npm start` (scripts/start.mjs) as a child process, for the quick-start tests (test/integration/quickstart,
// test/slow/quickstart-fresh-machine): its output collected, and a wait for a line of it.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The Elasticsearch version the suite runs on (ES_VERSION=9.2.0 npm test): the fresh-machine path starts that one,
// and stopping it must name the same version, or the stop would look for another server and leave this one running.
const SUITE_ES: Record<string, string> = process.env.ES_VERSION ? { ES_VERSION: process.env.ES_VERSION } : {};

export interface Started {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

export function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'warn',
      ...SUITE_ES,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout, stderr, exited };
}

export async function waitForOutput(started: Started, text: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!started.stdout.join('').includes(text)) {
    if (started.child.exitCode !== null) {
      throw new Error(`start.mjs exited ${started.child.exitCode}:\n${started.stderr.join('')}`);
    }
    if (Date.now() > deadline)
      throw new Error(`no "${text}" in:\n${started.stdout.join('')}\n${started.stderr.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
