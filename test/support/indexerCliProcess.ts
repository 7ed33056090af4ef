// Runs the real `ppa-indexer` CLI (bin/ppa-indexer.js) as a child process, for exit codes and signals.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ES_URL } from './services.js';

export const BIN_PATH = fileURLToPath(new URL('../../bin/ppa-indexer.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  /** Resolves once stderr contains the text (or rejects when the process ends first). */
  waitForStderr: (text: string) => Promise<void>;
  result: Promise<CliResult>;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, stdin?: Buffer): RunningCli {
  const child = spawn(process.execPath, [BIN_PATH, ...args], {
    env: { ...process.env, ES_URL, LOG_LEVEL: 'info', ...env },
    stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  if (stdin) child.stdin!.end(stdin);
  let stdout = '';
  let stderr = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const waiter of waiters.filter((w) => stderr.includes(w.text))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const result = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    child,
    result,
    waitForStderr: (text) =>
      new Promise<void>((resolve, reject) => {
        if (stderr.includes(text)) return resolve();
        waiters.push({ text, resolve });
        void result.then(({ stderr: all }) =>
          reject(new Error(`the CLI ended before printing ${JSON.stringify(text)}:\n${all}`)),
        );
      }),
  };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, stdin?: Buffer): Promise<CliResult> {
  return startCli(args, env, stdin).result;
}

/** The `{"summary": …}` line a reindex prints on stdout. */
export function summaryOf(result: CliResult): Record<string, unknown> {
  const line = result.stdout.split('\n').find((text) => text.startsWith('{"summary"'));
  if (!line) throw new Error(`no summary line (exit ${result.code}):\n${result.stderr}`);
  return (JSON.parse(line) as { summary: Record<string, unknown> }).summary;
}
