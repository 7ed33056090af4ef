// The CLI's run (indexer/commands/cliRun.ts's CliRun) for unit tests of the commands: a quiet logger whose lines are
// kept, variables set for one test, and what a command writes on stdout and stderr captured.
import type { Logger } from 'pino';
import type { CliRun } from '../../indexer/commands/cliRun.js';
import { createIndexerLogger } from '../../indexer/indexerLog.js';

/** A run whose log (text, at `level`) is kept in `lines`. */
export function cliRun(level = 'info'): CliRun & { lines: string[] } {
  const lines: string[] = [];
  const logger: Logger = createIndexerLogger('text', level, { write: (text) => lines.push(text) });
  return { logger, logFormat: 'text', context: {}, lines };
}

/** Runs `action` with the variables of `env` set (undefined: unset), then puts them back. */
export async function withEnv<T>(
  env: Record<string, string | undefined>,
  action: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  set(env);
  try {
    return await action();
  } finally {
    set(saved);
  }
}

/** What `action` writes on stdout and stderr (nothing reaches the terminal meanwhile). */
export async function captured(
  action: () => Promise<unknown>,
): Promise<{ stdout: string; stderr: string; error?: unknown }> {
  const out = { stdout: '', stderr: '' };
  const { write: stdoutWrite } = process.stdout;
  const { write: stderrWrite } = process.stderr;
  process.stdout.write = ((chunk: string | Uint8Array) => (
    (out.stdout += String(chunk)),
    true
  )) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (
    (out.stderr += String(chunk)),
    true
  )) as typeof process.stderr.write;
  try {
    await action();
    return out;
  } catch (error) {
    return { ...out, error };
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
}

/** The process's listeners of SIGINT and SIGTERM added by `action` (a command's abortOnSignals), removed after. */
export async function withoutNewSignalListeners<T>(action: () => Promise<T>): Promise<T> {
  const before = new Map(
    (['SIGINT', 'SIGTERM'] as const).map((signal) => [signal, process.listeners(signal)]),
  );
  try {
    return await action();
  } finally {
    for (const [signal, listeners] of before)
      for (const listener of process.listeners(signal))
        if (!listeners.includes(listener)) process.off(signal, listener);
  }
}
