// `npm run bench -- misses`: what a search that finds nothing costs against one that finds something (issue 72's
// budget: a list or suggest request that finds nothing costs at most 1.5× the Elasticsearch CPU and 1.5× the API
// CPU of one of the same shape that finds something). Over a generated corpus, typed queries of the same shapes
// (bench/perf/typedQueries.ts: a name as typed, a partial last word, a typo, a slip past the forgiving match, an
// unknown word, gibberish) are sent once to the API to sort them into those that find something (hits) and those
// that find nothing (misses); then, for the list and for suggest:
//   1. each side evenly paced at --rate over --connections, fresh requests every round, the sides alternating
//      first; the API's and Elasticsearch's CPU per answer from /proc around each side;
//   2. each side in a closed loop of --closed connections for --seconds: answers a second.
// The compiled API with RESPONSE_CACHE_MB=0, and Elasticsearch's shard request cache off on the index, so that no
// answer and no count is served from a cache. Writes bench/results/<date>-misses.md unless --no-write;
// --api-root DIR runs another checkout's API with the same load (a before/after).
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { positiveInteger } from '../indexer/optionParsers.js';
import { withFixture } from './fixture.js';
import { apiModeOf, defineSuite, type SharedOptions } from './suite.js';
import { REPO_ROOT, type ApiProcess } from './perf/apiProcess.js';
import { localEsPid } from './perf/cpuSplit.js';
import { localNodeInfo, setRequestCache } from './perf/rawElasticsearch.js';
import { apiTarget, median, runLoad } from './perf/load.js';
import { cpuSecondsIfLocal, machineInfo, preciseCpuSeconds } from './perf/machine.js';
import { runEvenlyPaced } from './perf/pacedLoad.js';
import type { MixRequest } from './perf/requestMix.js';
import {
  sortedTypedQueries,
  vocabularyRead,
  type Outcome,
  type TypedKind,
  type TypedSets,
} from './perf/typedQueries.js';

interface MissesOptions extends SharedOptions {
  rounds: number;
  perRound: number;
  rate: number;
  connections: number;
  closed: number;
  seconds: number;
  apiRoot?: string;
  out?: string;
}

export default defineSuite<MissesOptions>({
  name: 'misses',
  module: import.meta.url,
  summary: 'a search that finds nothing against one of the same shape that finds something (list, suggest)',
  count: 20_000,
  seed: 20261207,
  writes: true,
  options: (command) =>
    command
      .option('--rounds <n>', 'paced rounds (each side once a round, fresh requests)', positiveInteger, 3)
      .option('--per-round <n>', 'requests per side and round', positiveInteger, 300)
      .option('--rate <n>', 'requests a second of the paced rounds', positiveInteger, 30)
      .option('--connections <n>', 'connections of the paced rounds', positiveInteger, 4)
      .option('--closed <n>', 'connections of the closed loops', positiveInteger, 16)
      .option('--seconds <n>', 'seconds of each closed loop', positiveInteger, 10)
      .option('--api-root <dir>', "another checkout's API (a before/after)")
      .option('--out <file>', 'results file (default bench/results/<date>-misses.md)'),
  quick: {
    count: 400,
    args: ['--rounds', '1', '--per-round', '20', '--rate', '40', '--seconds', '1', '--closed', '4'],
  },
  run: misses,
});

const KINDS: readonly TypedKind[] = ['list', 'suggest'];
const OUTCOMES: readonly Outcome[] = ['hit', 'miss'];
/** The budget of issue 72: a miss's CPU a request, over a hit's of the same shape. */
const MISS_BUDGET = 1.5;

interface PacedRow {
  kind: TypedKind;
  round: number;
  outcome: Outcome;
  ok: number;
  errors: number;
  apiMs: number;
  esMs?: number;
}
interface ClosedRow {
  kind: TypedKind;
  outcome: Outcome;
  answersPerSecond: number;
  errors: number;
  apiMs: number;
  esMs?: number;
}
const log = (line: string) => process.stderr.write(`misses: ${line}\n`);
const HEADERS = { 'Accept-Encoding': 'gzip' };

async function misses(options: MissesOptions): Promise<void> {
  await withFixture('misses', async (fixture) => {
    const { alias, corpus } = await fixture.indexedCorpus({
      count: options.count,
      seed: options.seed,
      sampleSize: Math.min(20_000, Math.max(300, Math.floor(options.count / 2))),
    });
    await setRequestCache(fixture.es, alias, false);
    const build = await fixture.build(apiModeOf(options), options.apiRoot);
    const start = () => fixture.startApi({ build, alias, logLevel: 'info', env: { RESPONSE_CACHE_MB: '0' } });
    // The queries are sorted by an API of their own: the measured one has seen none of them.
    const sorter = await start();
    const needed = options.perRound * (options.rounds + 1);
    const sets = await sortedTypedQueries(sorter.url, corpus.sample, { seed: options.seed, needed, log });
    await sorter.stop();
    const api = await start();
    await vocabularyRead(api.url, sets.list.offeredExample);
    const esPid = await localEsPid((await localNodeInfo(fixture.es)).pid);
    const paced: PacedRow[] = [];
    const closed: ClosedRow[] = [];
    for (const kind of KINDS) {
      paced.push(...(await pacedRounds(api, esPid, options, kind, sets)));
      for (const outcome of OUTCOMES)
        closed.push(await closedLoop(api, esPid, options, { kind, outcome }, sets[kind][outcome]));
    }
    const report = reportLines(options, sets, paced, closed).join('\n');
    process.stdout.write(`${report}\n`);
    if (options.write) {
      const file =
        options.out ?? join(REPO_ROOT, 'bench/results', `${new Date().toISOString().slice(0, 10)}-misses.md`);
      await writeFile(file, report);
      log(`wrote ${file}`);
    }
  });
}

/** A warm-up of a round's requests a side, then the rounds, fresh requests each, alternating which side goes first. */
async function pacedRounds(
  api: ApiProcess,
  esPid: number | undefined,
  options: MissesOptions,
  kind: TypedKind,
  sets: TypedSets,
): Promise<PacedRow[]> {
  const slice = (outcome: Outcome, round: number) =>
    sets[kind][outcome].slice(round * options.perRound, (round + 1) * options.perRound);
  for (const outcome of OUTCOMES) await pacedSide(api, esPid, options, slice(outcome, 0));
  const rows: PacedRow[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const order: Outcome[] = round % 2 === 0 ? ['hit', 'miss'] : ['miss', 'hit'];
    for (const outcome of order) {
      const figures = await pacedSide(api, esPid, options, slice(outcome, round + 1));
      rows.push({ kind, round, outcome, ...figures });
      log(
        `${kind} round ${round + 1} ${outcome}: ${figures.ok} answers, ${figures.errors} errors, API ${figures.apiMs.toFixed(3)} ms CPU a request` +
          `${figures.esMs === undefined ? '' : `, Elasticsearch ${figures.esMs.toFixed(3)}`} (load ${loadavg()[0]!.toFixed(2)})`,
      );
    }
  }
  return rows;
}

/** The CPU a process spent around `run`, per answer: the API's (scheduler's count) and Elasticsearch's (ticks). */
async function cpuAround<T extends { ok: number }>(
  api: ApiProcess,
  esPid: number | undefined,
  run: () => Promise<T>,
): Promise<{ result: T; apiMs: number; esMs?: number }> {
  const apiBefore = await preciseCpuSeconds(api.pid);
  const esBefore = await cpuSecondsIfLocal(esPid);
  const result = await run();
  const apiAfter = await preciseCpuSeconds(api.pid);
  const esAfter = await cpuSecondsIfLocal(esPid);
  const per = (seconds: number) => (seconds * 1000) / Math.max(1, result.ok);
  return {
    result,
    apiMs: per(apiAfter.process - apiBefore.process),
    ...(esBefore === undefined || esAfter === undefined ? {} : { esMs: per(esAfter - esBefore) }),
  };
}

async function pacedSide(
  api: ApiProcess,
  esPid: number | undefined,
  options: MissesOptions,
  requests: MixRequest[],
): Promise<{ ok: number; errors: number; apiMs: number; esMs?: number }> {
  const { result, apiMs, esMs } = await cpuAround(api, esPid, () =>
    runEvenlyPaced(apiTarget(api.url, requests, HEADERS), {
      connections: options.connections,
      ratePerSecond: options.rate,
      durationSeconds: requests.length / options.rate,
    }),
  );
  // A refusal (503 overloaded on a machine busy with something else) is counted, and the CPU is per answer.
  if (result.ok === 0) throw new Error(`no answer to ${requests.length} requests`);
  return { ok: result.ok, errors: result.errors, apiMs, ...(esMs === undefined ? {} : { esMs }) };
}

/** One side in a closed loop (cycling through its requests: the request cache is off, so a repeat is computed). */
async function closedLoop(
  api: ApiProcess,
  esPid: number | undefined,
  options: MissesOptions,
  { kind, outcome }: { kind: TypedKind; outcome: Outcome },
  requests: MixRequest[],
): Promise<ClosedRow> {
  const { result, apiMs, esMs } = await cpuAround(api, esPid, () =>
    runLoad(apiTarget(api.url, requests, HEADERS), {
      connections: options.closed,
      durationSeconds: options.seconds,
    }),
  );
  log(
    `${kind} ${outcome}: closed loop of ${options.closed}: ${result.requestsPerSecond.toFixed(0)} answers/s, ${result.errors} errors`,
  );
  return {
    kind,
    outcome,
    answersPerSecond: result.requestsPerSecond,
    errors: result.errors,
    apiMs,
    ...(esMs === undefined ? {} : { esMs }),
  };
}

function reportLines(
  options: MissesOptions,
  sets: TypedSets,
  paced: readonly PacedRow[],
  closed: readonly ClosedRow[],
): string[] {
  const machine = machineInfo();
  const lines = [
    `# What a miss costs: ${options.count.toLocaleString('en')} records, typed queries that find nothing against those that find something`,
    '',
    `${new Date().toISOString()}; ${machine.cores} cores (${machine.cpuModel}), load average at the start ${machine.loadAverage}; Node ${process.version}.` +
      `${options.apiRoot ? ` The API of ${options.apiRoot}.` : ''} Made by \`npm run bench -- misses\`.`,
    '',
    `The compiled API, RESPONSE_CACHE_MB=0, Elasticsearch's shard request cache off on the index. Typed queries of the same shapes sorted by what the API answered: ` +
      KINDS.map(
        (kind) =>
          `${kind}: ${sets[kind].hit.length} hits, ${sets[kind].miss.length} misses (${sets[kind].offered} of those offered did_you_mean)`,
      ).join('; ') +
      `. Paced: ${options.rate} a second over ${options.connections} connections, ${options.perRound} fresh requests a side and round, ${options.rounds} rounds after a warm-up round, the sides alternating first; CPU per answer from /proc (the API: its threads' scheduler counts; Elasticsearch: 10 ms ticks). Closed loops: ${options.closed} connections, ${options.seconds} s a side.`,
    '',
    '| kind | API CPU ms, hit | miss | miss ÷ hit | ES CPU ms, hit | miss | miss ÷ hit | answers/s closed, hit | miss | miss ÷ hit |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const verdicts: string[] = [];
  for (const kind of KINDS) {
    const mid = (outcome: Outcome, key: 'apiMs' | 'esMs') =>
      median(
        paced.filter((row) => row.kind === kind && row.outcome === outcome).map((row) => row[key] ?? NaN),
      );
    const loop = (outcome: Outcome) => closed.find((row) => row.kind === kind && row.outcome === outcome);
    const api = mid('miss', 'apiMs') / mid('hit', 'apiMs');
    const es = mid('miss', 'esMs') / mid('hit', 'esMs');
    const answers = (loop('miss')?.answersPerSecond ?? NaN) / (loop('hit')?.answersPerSecond ?? NaN);
    lines.push(
      `| ${kind} | ${mid('hit', 'apiMs').toFixed(3)} | ${mid('miss', 'apiMs').toFixed(3)} | ${api.toFixed(2)}× | ${mid('hit', 'esMs').toFixed(2)} | ${mid('miss', 'esMs').toFixed(2)} | ${es.toFixed(2)}× | ${(loop('hit')?.answersPerSecond ?? NaN).toFixed(0)} | ${(loop('miss')?.answersPerSecond ?? NaN).toFixed(0)} | ${answers.toFixed(2)}× |`,
    );
    verdicts.push(
      `| ${kind}: API CPU a request, miss ÷ hit | ≤ ${MISS_BUDGET}× | ${api.toFixed(2)}× | ${api <= MISS_BUDGET ? 'met' : 'MISSED'} |`,
      `| ${kind}: Elasticsearch CPU a request, miss ÷ hit | ≤ ${MISS_BUDGET}× | ${es.toFixed(2)}× | ${es <= MISS_BUDGET ? 'met' : 'MISSED'} |`,
    );
  }
  return [
    ...lines,
    '',
    'Medians of the paced rounds; the closed loops one run a side.',
    '',
    '| target | goal | measured |  |',
    '|---|---|---:|---|',
    ...verdicts,
    '',
    '### Every paced round',
    '',
    '| kind | round | side | answers | errors | API CPU ms | Elasticsearch CPU ms |',
    '|---|---:|---|---:|---:|---:|---:|',
    ...paced.map(
      (row) =>
        `| ${row.kind} | ${row.round + 1} | ${row.outcome} | ${row.ok} | ${row.errors} | ${row.apiMs.toFixed(3)} | ${row.esMs?.toFixed(2) ?? ''} |`,
    ),
    '',
    '### Closed loops',
    '',
    '| kind | side | answers/s | errors | API CPU ms | Elasticsearch CPU ms |',
    '|---|---|---:|---:|---:|---:|',
    ...closed.map(
      (row) =>
        `| ${row.kind} | ${row.outcome} | ${row.answersPerSecond.toFixed(0)} | ${row.errors} | ${row.apiMs.toFixed(3)} | ${row.esMs?.toFixed(2) ?? ''} |`,
    ),
    '',
  ];
}
