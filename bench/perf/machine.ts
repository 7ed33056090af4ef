// What the figures were measured on: cores, memory, Node, and a process's CPU time (from /proc, Linux).
import { readdir, readFile } from 'node:fs/promises';
import { cpus, totalmem, loadavg } from 'node:os';

export interface MachineInfo {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  loadAverage: string;
}

export function machineInfo(): MachineInfo {
  const processors = cpus();
  return {
    cores: processors.length,
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    memoryGiB: totalmem() / 2 ** 30,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg()
      .map((value) => value.toFixed(2))
      .join(' '),
  };
}

/** User + system CPU seconds a process has used so far (/proc/<pid>/stat, clock ticks of 1/100 s). */
export async function processCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start at the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the line)
  return ticks / 100;
}

/** CPU seconds a thread ran, to the nanosecond (the scheduler's own count: /proc stat's are 1/100 s ticks). */
async function threadRunSeconds(pid: number, tid: string | number): Promise<number> {
  const schedstat = await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => '0');
  return Number(schedstat.split(' ')[0]) / 1e9;
}

/**
 * CPU seconds of a process to the nanosecond, and of its main thread (its JavaScript, for Node): the scheduler's
 * count per thread (/proc/<pid>/task/<tid>/schedstat), summed. A thread that ended between two readings takes its
 * time with it: Node's (the event loop, V8's and libuv's workers) live as long as the process.
 */
export async function preciseCpuSeconds(pid: number): Promise<{ process: number; mainThread: number }> {
  const threads = await readdir(`/proc/${pid}/task`);
  const seconds = await Promise.all(threads.map((tid) => threadRunSeconds(pid, tid)));
  return {
    process: seconds.reduce((sum, value) => sum + value, 0),
    mainThread: seconds[threads.indexOf(String(pid))] ?? 0,
  };
}

/** CPU seconds of a process, or undefined when it cannot be read (not on this machine, not Linux). */
export async function cpuSecondsIfLocal(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  return processCpuSeconds(pid).catch(() => undefined);
}
