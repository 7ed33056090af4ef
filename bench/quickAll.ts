// `npm run bench -- --quick-all [--jobs N] [suite…]`: every declared suite's quick form (or those named), each in
// a process of its own (a suite may leave a handle open or a signal handler behind; a child's end takes them
// away), with --no-write. Prints each suite's time and a summary, and answers non-zero when any suite failed.
// The smoke test of `npm test` (test/bench/quickForms.test.ts) runs them through startQuickForms, so that every
// suite keeps running end to end. `--jobs N` runs N at a time, each one's output printed whole when it ends: a quick form measures nothing, so
// they may share the machine, and most of a quick form's time is starting processes and waiting on them.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { positiveInteger } from '../indexer/optionParsers.js';
import type { Suite } from './suite.js';

const SUITE_MAIN = fileURLToPath(new URL('./suiteMain.ts', import.meta.url));

/**
 * The API processes of a quick form (they inherit it): a quick form proves that a suite runs, and the quick forms
 * share the machine's cores (--jobs), so each API's event loop is starved for short spells by its neighbours, which
 * its front door would read as its own saturation and shed (ADMISSION_LOOP_DELAY_MS). Admission itself is left as
 * users run it.
 */
const QUICK_API_ENV = { ADMISSION_LOOP_DELAY_MS: '1000' };

/** A quick form takes a minute or two; one still running after this hangs, and is ended as failed. */
const QUICK_FORM_LIMIT_MS = 300_000;

export interface QuickRun {
  name: string;
  seconds: number;
  code: number | null;
  /** What it printed, standard output and error interleaved (empty when printed live). */
  output: string;
}

async function runQuickForm(suite: Suite, live: boolean, print: boolean): Promise<QuickRun> {
  const args = [suite.name, '--quick', ...(suite.writes ? ['--no-write'] : [])];
  const title = `---- ${suite.name}: npm run bench -- ${args.join(' ')} (${suite.quick.join(' ')})\n`;
  if (live) process.stdout.write(title);
  const started = performance.now();
  // Not printed live: a process group of its own, so that a quick form past its time is ended with every process
  // it started (printed live, it stays in the terminal's group, where Ctrl-C reaches it).
  const child = spawn(process.execPath, [...process.execArgv, SUITE_MAIN, suite.module, ...args.slice(1)], {
    stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...QUICK_API_ENV },
    detached: !live,
  });
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(live ? child.pid! : -child.pid!, signal);
    } catch {
      // already gone
    }
  };
  let overdue = false;
  const timers = [
    setTimeout(() => {
      overdue = true;
      signalGroup('SIGTERM');
    }, QUICK_FORM_LIMIT_MS),
    setTimeout(() => signalGroup('SIGKILL'), QUICK_FORM_LIMIT_MS + 10_000),
  ];
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  for (const timer of timers) clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  const outcome =
    code === 0
      ? 'ok'
      : `FAILED (${overdue ? `past its ${QUICK_FORM_LIMIT_MS / 1000} s, ` : ''}${signal ?? `exit ${code}`})`;
  const printed = Buffer.concat(output).toString() + (overdue ? `\n${outcome}\n` : '');
  if (print) {
    if (!live) process.stdout.write(`\n${title}${printed}`);
    process.stdout.write(`---- ${suite.name}: ${outcome} in ${seconds.toFixed(1)} s\n`);
  }
  return { name: suite.name, seconds, code: code ?? (signal ? 128 : null), output: printed };
}

/**
 * Starts the quick forms of `suites`, `jobs` at a time, the ones of most records first (the longest: overload's
 * must still reach past capacity), so that the others run beside them rather than after. Each one's run, by
 * name. `print`: write each one's output when it ends (live when one at a time); else only keep it.
 */
export function startQuickForms(
  suites: readonly Suite[],
  jobs: number,
  print: boolean,
): Map<string, Promise<QuickRun>> {
  const waiting = [...suites].sort((a, b) => b.quickCount - a.quickCount);
  const settle = new Map<string, (run: QuickRun) => void>();
  const runs = new Map<string, Promise<QuickRun>>();
  for (const suite of suites) {
    runs.set(suite.name, new Promise<QuickRun>((resolve) => settle.set(suite.name, resolve)));
  }
  const worker = async () => {
    for (let suite = waiting.shift(); suite; suite = waiting.shift()) {
      const run = await runQuickForm(suite, print && jobs === 1, print).catch((error: unknown): QuickRun => ({
        name: suite.name,
        seconds: 0,
        code: null,
        output: String(error),
      }));
      settle.get(suite.name)!(run);
    }
  };
  for (let i = 0; i < Math.min(jobs, suites.length); i++) void worker();
  return runs;
}

/** Runs the quick forms the arguments ask for; resolves with the exit code to give. */
export async function runQuickForms(suites: readonly Suite[], args: readonly string[]): Promise<number> {
  let jobs = 1;
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--jobs') jobs = positiveInteger(args[++i] ?? '');
    else names.push(args[i]!);
  }
  const unknown = names.filter((name) => !suites.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown suite(s) ${unknown.join(', ')}\n`);
    return 2;
  }
  const chosen = names.length > 0 ? suites.filter((suite) => names.includes(suite.name)) : suites;
  const started = performance.now();
  const runs = await Promise.all(startQuickForms(chosen, jobs, true).values());
  const width = Math.max(5, ...runs.map((run) => run.name.length));
  const failed = runs.filter((run) => run.code !== 0);
  const row = (name: string, seconds: number, outcome: string) =>
    `  ${name.padEnd(width)}  ${seconds.toFixed(1).padStart(6)} s  ${outcome}`;
  const total = (performance.now() - started) / 1000;
  process.stdout.write(
    [
      '',
      `quick forms (${jobs} at a time):`,
      ...runs.map((run) => row(run.name, run.seconds, run.code === 0 ? 'ok' : 'FAILED')),
      row(
        'total',
        total,
        failed.length === 0 ? 'ok' : `${failed.length} failed: ${failed.map((r) => r.name).join(', ')}`,
      ),
      '',
    ].join('\n'),
  );
  return failed.length === 0 ? 0 : 1;
}
