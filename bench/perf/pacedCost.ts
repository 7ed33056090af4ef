// Elasticsearch's CPU per request, kind by kind and side by side, at an even pace: the measurement behind
// `npm run bench -- query-cost` and `query-cost-mix`. Each kind's two sides run in rounds that alternate which
// goes first, after one warm-up pass of every request on each side; the CPU is read from /proc around each run.
import type { Command } from 'commander';
import { loadavg } from 'node:os';
import { positiveInteger } from '../../indexer/optionParsers.js';
import type { LoadTarget } from './load.js';
import { processCpuSeconds } from './machine.js';
import { runEvenlyPaced } from './pacedLoad.js';

export type CostSide = 'api' | 'plain';
export const COST_SIDES: readonly CostSide[] = ['api', 'plain'];

export interface CostKind {
  kind: string;
  /** The kind's requests as each side sends them. */
  targets: Record<CostSide, LoadTarget>;
}

export interface PaceOptions {
  connections: number;
  ratePerSecond: number;
  /** Seconds per kind, side and round. */
  durationSeconds: number;
  rounds: number;
}

/** The pace's options, declared once for every suite that measures this way. */
export function withPaceOptions(command: Command): Command {
  return command
    .option('--rounds <n>', 'rounds (each side once per kind and round)', positiveInteger, 2)
    .option('--seconds <n>', 'seconds per kind, side and round', positiveInteger, 6)
    .option('--rate <n>', 'requests per second, evenly paced', positiveInteger, 40)
    .option('--connections <n>', 'connections of the paced load', positiveInteger, 2);
}

/** The pace from the options withPaceOptions declared. */
export function paceOf(options: {
  rounds: number;
  seconds: number;
  rate: number;
  connections: number;
}): PaceOptions {
  return {
    connections: options.connections,
    ratePerSecond: options.rate,
    durationSeconds: options.seconds,
    rounds: options.rounds,
  };
}

/** Mean ms of Elasticsearch CPU a request, per kind and side. */
export type KindCosts = Map<string, Record<CostSide, number>>;

export async function pacedCostByKind(
  esPid: number,
  kinds: readonly CostKind[],
  warmUp: Record<CostSide, LoadTarget>,
  options: PaceOptions,
  log: (line: string) => void,
): Promise<KindCosts> {
  const { rounds, ...pace } = options;
  for (const side of COST_SIDES) {
    await runEvenlyPaced(warmUp[side], {
      ...pace,
      durationSeconds: warmUp[side].requests.length / pace.ratePerSecond,
    });
  }
  const runs = new Map<string, Record<CostSide, number[]>>();
  for (let round = 0; round < rounds; round++) {
    for (const { kind, targets } of kinds) {
      const order: CostSide[] = round % 2 === 0 ? ['api', 'plain'] : ['plain', 'api'];
      for (const side of order) {
        const before = await processCpuSeconds(esPid);
        const result = await runEvenlyPaced(targets[side], pace);
        const perRequest = (((await processCpuSeconds(esPid)) - before) * 1000) / Math.max(1, result.ok);
        if (result.errors > 0) throw new Error(`${kind}, ${side}: ${result.errors} failed requests`);
        const kindRuns = runs.get(kind) ?? { api: [], plain: [] };
        kindRuns[side].push(perRequest);
        runs.set(kind, kindRuns);
        log(
          `round ${round + 1} ${kind} ${side}: ${result.ok} answers, ${perRequest.toFixed(2)} ms Elasticsearch CPU a request (load ${loadavg()[0]!.toFixed(2)})`,
        );
      }
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const costs: KindCosts = new Map();
  for (const [kind, { api, plain }] of runs) costs.set(kind, { api: mean(api), plain: mean(plain) });
  return costs;
}
