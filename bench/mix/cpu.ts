// CPU accounting of the mix suite: the API's, Elasticsearch's and this process's CPU time read around each load
// run, summed per side and turned into milliseconds per answered request (and, with --cpu-split, per core).
import type { CpuSplit } from '../perf/cpuSplit.js';
import { cpuSecondsIfLocal, processCpuSeconds } from '../perf/machine.js';
import type { CpuFigures } from '../perf/summary.js';

export interface CpuTotals {
  api: number;
  es: number | undefined;
  bench: number;
  seconds: number;
}

export interface CpuSnapshot {
  api: number;
  es: number | undefined;
  bench: number;
}

export const emptyCpu = (): CpuTotals => ({ api: 0, es: 0, bench: 0, seconds: 0 });

export async function cpuSnapshot(apiPid: number, esPid: number | undefined): Promise<CpuSnapshot> {
  const usage = process.cpuUsage();
  return {
    api: await processCpuSeconds(apiPid),
    es: await cpuSecondsIfLocal(esPid),
    bench: (usage.user + usage.system) / 1e6,
  };
}

export function addCpu(totals: CpuTotals, before: CpuSnapshot, after: CpuSnapshot, seconds: number): void {
  totals.api += after.api - before.api;
  totals.es =
    totals.es === undefined || after.es === undefined ? undefined : totals.es + after.es - (before.es ?? 0);
  totals.bench += after.bench - before.bench;
  totals.seconds += seconds;
}

export function cpuPerRequest(
  totals: CpuTotals,
  results: readonly { ok: number }[],
  split?: CpuSplit,
): CpuFigures {
  const answered = Math.max(
    1,
    results.reduce((sum, result) => sum + result.ok, 0),
  );
  const perRequest = (seconds: number) => (seconds * 1000) / answered;
  const used = totals.api + (totals.es ?? 0) + totals.bench;
  const figures: CpuFigures = {
    apiMs: perRequest(totals.api),
    esMs: totals.es === undefined ? undefined : perRequest(totals.es),
    loadGeneratorMs: perRequest(totals.bench),
    coresBusy: used / Math.max(0.001, totals.seconds),
  };
  if (split) {
    // Each core on its own: CPU 0 is Elasticsearch's alone, CPU 1 the API's and the load generator's.
    if (totals.es !== undefined) figures.esCoreBusy = totals.es / Math.max(0.001, totals.seconds);
    figures.benchCoreBusy = (totals.api + totals.bench) / Math.max(0.001, totals.seconds);
  }
  return figures;
}
