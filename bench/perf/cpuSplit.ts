// `--cpu-split`: the production shape (Elasticsearch on hosts of its own, the API and the indexer elsewhere) on
// one machine. Elasticsearch's JVM, every thread of it, goes to CPU 0. CPU 1 gets this process (autocannon, the
// raw `_bulk` client and the indexer run in it) and the API process, which is spawned under `taskset -c 1`.
// The raw side and the API side run under the same pinning, so raw Elasticsearch also has exactly one core.
// Linux only: the affinities are read from /proc/<pid>/task/<tid>/status (Cpus_allowed_list) and set with
// taskset. Elasticsearch's original affinity is read thread by thread before anything changes and is put back
// at the end, also on Ctrl-C, on failure and, synchronously, on process exit. A detached watchdog (sh, reading
// a pipe from this process) puts it back too if this process dies without doing so: SIGKILL, or tsx's signal
// relay, which kills its child when the child does not acknowledge a Ctrl-C within 30 ms (a loaded core).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { cpus } from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ES_CPU = 0;
export const BENCH_CPU = 1;

/** `pid` when it is an Elasticsearch process on this machine (its command line says so), else undefined. */
export async function localEsPid(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return commandLine.includes('elasticsearch') ? pid : undefined;
}

/** What a core-split run records in its settings (and so in the results file and its JSON). */
export interface CpuSplitSettings {
  esCpu: number;
  benchCpu: number;
  esPid: number;
  /** Elasticsearch's affinity before the run (CPU list of its main thread), restored at the end. */
  esOriginalAffinity: string;
}

/** The one-line statement every core-split table and results file carries. */
export function cpuSplitLine(split: CpuSplitSettings): string {
  return (
    `CPU split: Elasticsearch on CPU ${split.esCpu}, API + load generator + indexer on CPU ${split.benchCpu} ` +
    `(taskset; Elasticsearch pid ${split.esPid}, its affinity ${split.esOriginalAffinity} restored at the end). ` +
    'Not a shared-core run: raw Elasticsearch and the API side both get one core of Elasticsearch.'
  );
}

/** CPU list (`0-1`, `0,2-3`) → the CPU numbers. */
export function parseCpuList(list: string): number[] {
  const result: number[] = [];
  for (const part of list.trim().split(',')) {
    if (part === '') continue;
    const [low, high] = part.split('-').map(Number);
    if (low === undefined || !Number.isInteger(low)) throw new Error(`not a CPU list: ${list}`);
    const end = high ?? low;
    if (!Number.isInteger(end)) throw new Error(`not a CPU list: ${list}`);
    for (let cpu = low; cpu <= end; cpu++) result.push(cpu);
  }
  return result;
}

async function cpusAllowed(statusPath: string): Promise<string> {
  const status = await readFile(statusPath, 'utf8');
  const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1];
  if (list === undefined) throw new Error(`no Cpus_allowed_list in ${statusPath}`);
  return list;
}

/** Every thread of a process with its CPU list (threads that end while being read are skipped). */
export async function threadAffinities(pid: number): Promise<Map<number, string>> {
  const tids = (await readdir(`/proc/${pid}/task`)).map(Number);
  const result = new Map<number, string>();
  for (const tid of tids) {
    const list = await cpusAllowed(`/proc/${pid}/task/${tid}/status`).catch(() => undefined);
    if (list !== undefined) result.set(tid, list);
  }
  return result;
}

/** Throws unless every thread of `pid` may run on exactly `cpu` and nothing else. */
export async function assertPinned(pid: number, cpu: number, what: string): Promise<void> {
  const wrong = [...(await threadAffinities(pid))].filter(([, list]) => list !== String(cpu));
  if (wrong.length > 0) {
    const sample = wrong
      .slice(0, 3)
      .map(([tid, list]) => `thread ${tid}: ${list}`)
      .join(', ');
    throw new Error(
      `--cpu-split: ${what} (pid ${pid}) is not pinned to CPU ${cpu}: ${wrong.length} thread(s) (${sample})`,
    );
  }
}

async function tasksetAvailable(): Promise<boolean> {
  try {
    await run('taskset', ['--version']);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** TCP ports the process `pid` listens on (its own network namespace's tables, its own socket fds). */
async function listeningPorts(pid: number): Promise<Set<number>> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) inodes.add(inode);
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    const text = await readFile(`/proc/${pid}/net/${table}`, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is `hex-ip:hex-port`, st 0A is LISTEN, field 10 is the socket's inode.
      if (fields.length > 9 && fields[3] === '0A' && inodes.has(fields[9]!)) {
        ports.add(parseInt(fields[1]!.split(':').pop()!, 16));
      }
    }
  }
  return ports;
}

/**
 * Why --cpu-split cannot run here, or undefined when it can: Linux with taskset, CPUs 0 and 1 both online and
 * allowed to this process, and the Elasticsearch node ES_URL reaches is a process of this machine (the pid it
 * reports exists here, is an Elasticsearch and listens on the node's HTTP port).
 */
export async function cpuSplitProblem(
  esPid: number | undefined,
  reportedPid: number | undefined,
  esHttpPort: number | undefined,
): Promise<string | undefined> {
  if (process.platform !== 'linux') return `it needs Linux (this is ${process.platform})`;
  if (!(await tasksetAvailable())) return 'taskset was not found (util-linux)';
  const online = parseCpuList(await readFile('/sys/devices/system/cpu/online', 'utf8').catch(() => ''));
  if (cpus().length < 2 || !online.includes(ES_CPU) || !online.includes(BENCH_CPU)) {
    return `it needs at least 2 CPUs (CPUs ${ES_CPU} and ${BENCH_CPU} online); this machine has ${cpus().length}`;
  }
  const own = parseCpuList(await cpusAllowed(`/proc/${process.pid}/status`));
  if (!own.includes(ES_CPU) || !own.includes(BENCH_CPU)) {
    return `this process may only run on CPUs ${own.join(',')} (a cpuset or taskset around it); it needs ${ES_CPU} and ${BENCH_CPU}`;
  }
  if (reportedPid === undefined) return 'Elasticsearch did not report its process id (_nodes/_local/process)';
  if (esPid === undefined) {
    return (
      `Elasticsearch reports pid ${reportedPid}, which is not an Elasticsearch process on this machine: ` +
      'it runs elsewhere (or in a container with its own pid namespace), and its CPUs cannot be pinned from here'
    );
  }
  if (esHttpPort !== undefined) {
    let ports: Set<number>;
    try {
      ports = await listeningPorts(esPid);
    } catch (error) {
      return (
        `cannot read /proc/${esPid}/fd to check that pid ${esPid} is the node ES_URL reaches ` +
        `(${(error as NodeJS.ErrnoException).code ?? String(error)}): run the benchmark as root or as ` +
        "Elasticsearch's user (pinning its threads needs that too)"
      );
    }
    if (!ports.has(esHttpPort)) {
      return `the local Elasticsearch pid ${esPid} does not listen on the node's HTTP port ${esHttpPort}: it is not the node ES_URL reaches`;
    }
  }
  const threads = [...(await threadAffinities(esPid)).values()];
  if (threads.length > 0 && threads.every((list) => list === String(ES_CPU))) {
    return (
      `Elasticsearch (pid ${esPid}) is already pinned to CPU ${ES_CPU} alone: another --cpu-split run is going on, ` +
      `or one was killed before it could restore it. Its original affinity is unknown here; if nothing else runs, ` +
      `restore it with \`taskset -a -p -c ${online.join(',')} ${esPid}\` and start again`
    );
  }
  return undefined;
}

/**
 * `sh` in its own session (a Ctrl-C to the terminal's process group does not reach it) that ignores signals and
 * waits for a line on its stdin, a pipe from this process: "done" means restored, end of file without it (this
 * process died) runs the restoring tasksets. Unref'd: it never keeps this process alive.
 */
function startWatchdog(restoreArgs: string[][], esPid: number, main: string) {
  for (const args of restoreArgs) {
    if (!args.every((arg) => /^(-[apc]|[0-9][0-9,-]*)$/.test(arg)))
      throw new Error(`unexpected taskset ${args}`);
  }
  const script = [
    "trap '' INT HUP TERM QUIT PIPE",
    'IFS= read -r line',
    '[ "$line" = done ] && exit 0',
    ...restoreArgs.map((args) => `taskset ${args.join(' ')} >/dev/null 2>&1`),
    `echo "bench (watchdog): the benchmark process is gone; Elasticsearch (pid ${esPid}) set back to CPUs ${main}" >&2`,
  ].join('\n');
  const child = spawn('sh', ['-c', script], { detached: true, stdio: ['pipe', 'ignore', 'inherit'] });
  child.on('error', () => undefined);
  child.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return child;
}

export interface CpuSplit {
  settings: CpuSplitSettings;
  /** Puts Elasticsearch's threads back on their original CPUs (once; later calls do nothing). */
  restore(): Promise<void>;
  /** The same, synchronous, for process 'exit' (a second Ctrl-C, an uncaught error). */
  restoreSync(): void;
  /** Throws when Elasticsearch or this process are no longer pinned as they should be. */
  check(): Promise<void>;
}

/**
 * Pins Elasticsearch to CPU 0 and this process to CPU 1. `onChange` is called (before the first change) with
 * the restore functions, so a failure half-way still puts Elasticsearch back.
 */
export async function applyCpuSplit(
  esPid: number,
  log: (message: string) => void,
  onChange: (split: CpuSplit) => void,
): Promise<CpuSplit> {
  const original = await threadAffinities(esPid);
  const main = original.get(esPid);
  if (main === undefined)
    throw new Error(`--cpu-split: cannot read the affinity of Elasticsearch (pid ${esPid})`);
  // Threads that had another list than the main thread get theirs back one by one; new threads get main's.
  const odd = [...original].filter(([tid, list]) => tid !== esPid && list !== main);

  let restored = false;
  const restoreArgs = (): string[][] => [
    ['-a', '-p', '-c', main, String(esPid)],
    ...odd.map(([tid, list]) => ['-p', '-c', list, String(tid)]),
  ];
  const watchdog = startWatchdog(restoreArgs(), esPid, main);
  const releaseWatchdog = (): void => {
    // "done": this process has restored the affinity itself; the watchdog exits without touching it.
    if (watchdog.stdin?.writable) watchdog.stdin.end('done\n');
  };
  const settings: CpuSplitSettings = {
    esCpu: ES_CPU,
    benchCpu: BENCH_CPU,
    esPid,
    esOriginalAffinity: main,
  };
  const split: CpuSplit = {
    settings,
    async restore() {
      if (restored) return;
      restored = true;
      for (const args of restoreArgs()) {
        await run('taskset', args).catch((error: unknown) =>
          log(`--cpu-split: taskset ${args.join(' ')} failed: ${String(error)}`),
        );
      }
      const now = await threadAffinities(esPid).catch(() => new Map<number, string>());
      const back = now.get(esPid) === main;
      if (back) releaseWatchdog();
      log(
        back
          ? `--cpu-split: Elasticsearch (pid ${esPid}) is back on CPUs ${main}`
          : `--cpu-split: could not restore Elasticsearch's affinity; run \`taskset -a -p -c ${main} ${esPid}\``,
      );
    },
    restoreSync() {
      if (restored) return;
      restored = true;
      for (const args of restoreArgs()) {
        try {
          execFileSync('taskset', args, { stdio: 'ignore' });
        } catch {
          // a thread that has ended; the main call is the one that matters
        }
      }
      // The watchdog is not released here: when this process is gone it restores once more (the same lists).
      process.stderr.write(`bench: --cpu-split: Elasticsearch (pid ${esPid}) put back on CPUs ${main}\n`);
    },
    async check() {
      await assertPinned(esPid, ES_CPU, 'Elasticsearch');
      await assertPinned(process.pid, BENCH_CPU, 'the bench process');
    },
  };

  log(
    `--cpu-split: Elasticsearch pid ${esPid} (${original.size} threads, CPUs ${main}) → CPU ${ES_CPU}; ` +
      `this process pid ${process.pid} and the API → CPU ${BENCH_CPU}. ` +
      `If this run is killed hard, restore with: taskset -a -p -c ${main} ${esPid}`,
  );
  onChange(split);
  const pin = async (pid: number, cpu: number, what: string): Promise<void> => {
    // Twice at most: a thread started while taskset walked /proc/<pid>/task inherits the old list.
    for (let attempt = 1; ; attempt++) {
      const args = ['-a', '-p', '-c', String(cpu), String(pid)];
      await run('taskset', args).catch((error: { stderr?: string }) => {
        // EPERM: another user's process needs root (or CAP_SYS_NICE).
        throw new Error(
          `--cpu-split: taskset ${args.join(' ')} (${what}) failed: ${error.stderr?.trim() ?? error}`,
        );
      });
      try {
        await assertPinned(pid, cpu, what);
        return;
      } catch (error) {
        if (attempt >= 2) throw error;
      }
    }
  };
  await pin(esPid, ES_CPU, 'Elasticsearch');
  await pin(process.pid, BENCH_CPU, 'the bench process');
  return split;
}
