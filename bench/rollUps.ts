// `npm run bench -- roll-ups`: what a roll-up (statistics?group_by=…) costs against the plain statistics of the same
// selection (issue 67: group_by=developer over 100k records with no filter inside the search deadline,
// ES_REQUEST_TIMEOUT_MS, and at most 2× the plain request). Over a generated corpus, the compiled API with its
// response cache off and Elasticsearch's request cache off on the index (every answer computed), for each selection
// (no filter, a country, a technology, a q): the plain statistics and the same with group_by=developer, offtaker
// and the pivot country,technology, evenly paced, in rounds alternating which side goes first; per side the API's
// and Elasticsearch's CPU per request (/proc) and the wall latency (median, p99, max), each roll-up's ratio to the
// plain side, and whether the slowest developer roll-up stayed inside the deadline's default. --profile adds a CPU
// profile of the API over the plain request and the developer roll-up with no filter. Writes
// bench/results/<date>-roll-ups.md unless --no-write; --api-root DIR runs another checkout's API (a before/after).
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { positiveInteger } from '../indexer/optionParsers.js';
import type { PpaRecord } from '../indexContract/record.js';
import { ES_VARIABLES_SPEC } from '../settings/elasticsearch.js';
import { withFixture, type BenchFixture } from './fixture.js';
import { Random } from '../tools/generate/random.js';
import { apiModeOf, defineSuite, type SharedOptions } from './suite.js';
import { profiledApiRun, REPO_ROOT, type ApiBuild, type ApiProcess } from './perf/apiProcess.js';
import { localEsPid } from './perf/cpuSplit.js';
import { quantile, type LoadTarget } from './perf/load.js';
import { cpuSecondsIfLocal, machineInfo, preciseCpuSeconds } from './perf/machine.js';
import { runEvenlyPaced } from './perf/pacedLoad.js';
import { localNodeInfo, setRequestCache } from './perf/rawElasticsearch.js';
import { profileLines, type ProfileSummary } from './perf/profile.js';

interface RollUpsOptions extends SharedOptions {
  rounds: number;
  seconds: number;
  rate: number;
  connections: number;
  warmup: number;
  apiRoot?: string;
  profile?: boolean;
  keepProfiles?: boolean;
  out?: string;
  developers?: number;
}

export default defineSuite<RollUpsOptions>({
  name: 'roll-ups',
  module: import.meta.url,
  summary: 'what statistics?group_by=… costs against the plain statistics of the same selection',
  count: 100_000,
  seed: 20261122,
  writes: true,
  options: (command) =>
    command
      .option('--rounds <n>', 'rounds (each side of each selection once per round)', positiveInteger, 3)
      .option('--seconds <n>', 'seconds per selection, side and round', positiveInteger, 8)
      .option('--rate <n>', 'requests per second, evenly paced', positiveInteger, 2)
      .option('--connections <n>', 'connections of the paced load', positiveInteger, 2)
      .option('--warmup <n>', 'requests of each selection and side before the rounds', positiveInteger, 5)
      .option(
        '--developers <n>',
        'distinct developers the records are spread over (default: a quarter of --count; the generator alone makes a few dozen), a third in consortia of two',
        positiveInteger,
      )
      .option('--api-root <dir>', "another checkout's API (a before/after)")
      .option(
        '--profile',
        'then a CPU profile of the API: the plain request and the developer roll-up, no filter',
      )
      .option('--keep-profiles', 'with --profile: leave the .cpuprofile files (their paths are logged)')
      .option('--out <file>', 'results file (default bench/results/<date>-roll-ups.md)'),
  quick: { count: 300, args: ['--rounds', '1', '--seconds', '1', '--rate', '8', '--warmup', '1'] },
  run: rollUps,
});

/**
 * Records whose developers are spread over `distinct` names (real registries hold tens of thousands at 100k PPAs;
 * the generator alone makes a few dozen), a third of them consortia of two, so that the developer roll-up walks
 * as many groups as real data makes it.
 */
function manyDevelopers(distinct: number, seed: number): (record: PpaRecord) => PpaRecord {
  const random = new Random(seed ^ 0xdeb);
  const name = (index: number) => `Developer ${index.toString(36).toUpperCase()} Power`;
  return (record) => {
    const first = name(random.int(0, distinct - 1));
    const developer = random.chance(1 / 3) ? `${first} / ${name(random.int(0, distinct - 1))}` : first;
    return { ...record, developer };
  };
}

/** The sides of each selection: the plain statistics, then each roll-up's group_by. */
const SIDES = ['plain', 'developer', 'offtaker', 'pivot'] as const;
type Side = (typeof SIDES)[number];
const GROUP_BY: Record<Side, string | undefined> = {
  plain: undefined,
  developer: 'developer',
  offtaker: 'offtaker',
  pivot: 'country,technology',
};
/** The deadline of one search as deployed (the bench's API runs with a longer one, so that it measures, not refuses). */
const DEADLINE_MS = Number(ES_VARIABLES_SPEC.ES_REQUEST_TIMEOUT_MS.default);
/** Issue 67's bound: a developer roll-up with no filter at most this many times the plain request. */
const TARGET_RATIO = 2;
/** As browsers ask (the API compresses its answers, as deployed). */
const HEADERS = { 'Accept-Encoding': 'gzip' };
const log = (line: string) => process.stderr.write(`roll-ups: ${line}\n`);
const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

interface Selection {
  name: string;
  /** The filters and q, as a query string ('' for none). */
  querystring: string;
}

/** What the API answered for a selection once: its PPAs and, per roll-up, the groups of its first dimension. */
interface SelectionFacts {
  ppas: number;
  groups: Partial<Record<Side, number>>;
}

interface Run {
  round: number;
  selection: string;
  side: Side;
  ok: number;
  apiSeconds: number;
  esSeconds?: number;
  latencies: number[];
  load: number;
}

interface RollUpsBench {
  options: RollUpsOptions;
  fixture: BenchFixture;
  alias: string;
  build: ApiBuild;
  api: ApiProcess;
  esPid: number | undefined;
  selections: Selection[];
}

async function rollUps(options: RollUpsOptions): Promise<void> {
  await withFixture('roll-ups', async (fixture) => {
    const { alias, corpus } = await fixture.indexedCorpus({
      count: options.count,
      seed: options.seed,
      sampleSize: Math.min(20_000, Math.max(500, Math.floor(options.count / 4))),
      rewrite: manyDevelopers(
        options.developers ?? Math.max(10, Math.floor(options.count / 4)),
        options.seed,
      ),
    });
    const build = await fixture.build(apiModeOf(options), options.apiRoot);
    const api = await fixture.startApi({ build, alias, logLevel: 'info', env: { RESPONSE_CACHE_MB: '0' } });
    const esPid = await localEsPid((await localNodeInfo(fixture.es)).pid);
    const bench: RollUpsBench = {
      options,
      fixture,
      alias,
      build,
      api,
      esPid,
      selections: selectionsOf(corpus.sample),
    };
    const facts = await checkAnswers(bench);
    // Every answer computed: the shard request cache would answer a size-0 search asked again.
    await setRequestCache(fixture.es, alias, false);
    let runs: Run[];
    let profiles: { side: Side; summary: ProfileSummary }[];
    try {
      await warmUp(bench);
      runs = await measure(bench);
      profiles = options.profile ? await profileSides(bench) : [];
    } finally {
      await setRequestCache(fixture.es, alias, true);
    }
    const report = [
      ...headLines(options, corpus.records, corpus.live),
      ...resultLines(bench, facts, runs),
      ...profiles.flatMap(({ side, summary }) => [
        `## Profile of the API: ${side}, no filter (one run)`,
        '',
        ...profileLines(summary),
        '',
      ]),
    ].join('\n');
    process.stdout.write(`${report}\n`);
    if (options.write) await writeReport(options, report);
  });
}

/** The value most of the records have (ties: the first in code-point order). */
function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (!ranked[0]) throw new Error('roll-ups: the sample is empty');
  return ranked[0][0];
}

/** The selections: none, the sample's most common country and technology, and its most common place word as q. */
function selectionsOf(sample: readonly PpaRecord[]): Selection[] {
  const country = mostCommon(sample.flatMap((record) => record.country_code ?? [])).toLowerCase();
  const technology = mostCommon(sample.map((record) => record.technology));
  const place = mostCommon(
    sample.flatMap((record) => record.location.split(/[\s,/()]+/u).filter((word) => /\p{L}{3,}/u.test(word))),
  );
  return [
    { name: 'no filter', querystring: '' },
    { name: `country=${country}`, querystring: `country=${country}` },
    { name: `technology=${technology}`, querystring: `technology=${technology}` },
    { name: `q=${place}`, querystring: `q=${encodeURIComponent(place)}` },
  ];
}

function pathOf(selection: Selection, side: Side): string {
  const groupBy = GROUP_BY[side];
  const query = [selection.querystring, groupBy ? `group_by=${groupBy}` : ''].filter(Boolean).join('&');
  return `/api/v1/ppas/statistics${query ? `?${query}` : ''}`;
}

function targetOf(url: string, selection: Selection, side: Side): LoadTarget {
  return {
    side: 'api',
    url,
    requests: [{ kind: 'statistics', method: 'GET', path: pathOf(selection, side), headers: HEADERS }],
  };
}

/** Each request answered once: a 200, the selection's PPAs and each roll-up's groups (the report names them). */
async function checkAnswers({ api, selections }: RollUpsBench): Promise<Map<string, SelectionFacts>> {
  const facts = new Map<string, SelectionFacts>();
  for (const selection of selections) {
    const found: SelectionFacts = { ppas: 0, groups: {} };
    for (const side of SIDES) {
      const response = await fetch(`${api.url}${pathOf(selection, side)}`);
      if (!response.ok) throw new Error(`${pathOf(selection, side)}: HTTP ${response.status}`);
      const { data } = (await response.json()) as {
        data: { totals: { ppas: number }; groups_meta?: { total_groups: number } };
      };
      found.ppas = data.totals.ppas;
      if (data.groups_meta) found.groups[side] = data.groups_meta.total_groups;
    }
    log(
      `${selection.name}: ${found.ppas} PPAs; groups: ${SIDES.slice(1)
        .map((side) => `${side} ${found.groups[side]}`)
        .join(', ')}`,
    );
    facts.set(selection.name, found);
  }
  return facts;
}

/** --warmup requests of each selection and side, evenly paced, before anything is measured. */
async function warmUp({ api, options, selections }: RollUpsBench): Promise<void> {
  for (const selection of selections) {
    for (const side of SIDES) {
      await runEvenlyPaced(targetOf(api.url, selection, side), {
        connections: options.connections,
        ratePerSecond: options.rate,
        durationSeconds: options.warmup / options.rate,
      });
    }
  }
}

/** The rounds: every selection's sides, the order reversed every other round. */
async function measure(bench: RollUpsBench): Promise<Run[]> {
  const runs: Run[] = [];
  for (let round = 0; round < bench.options.rounds; round++) {
    const order = round % 2 === 0 ? [...SIDES] : [...SIDES].reverse();
    for (const selection of bench.selections) {
      for (const side of order) runs.push(await measureRun(bench, round, selection, side));
    }
  }
  return runs;
}

/** One side of one selection in one round, evenly paced: CPU of the API and of Elasticsearch, wall latencies. */
async function measureRun(
  { api, esPid, options }: RollUpsBench,
  round: number,
  selection: Selection,
  side: Side,
): Promise<Run> {
  const apiBefore = await preciseCpuSeconds(api.pid);
  const esBefore = await cpuSecondsIfLocal(esPid);
  const result = await runEvenlyPaced(targetOf(api.url, selection, side), {
    connections: options.connections,
    ratePerSecond: options.rate,
    durationSeconds: options.seconds,
  });
  const apiAfter = await preciseCpuSeconds(api.pid);
  const esAfter = await cpuSecondsIfLocal(esPid);
  if (result.errors > 0) throw new Error(`${selection.name}, ${side}: ${result.errors} failed requests`);
  const run: Run = {
    round,
    selection: selection.name,
    side,
    ok: result.ok,
    apiSeconds: apiAfter.process - apiBefore.process,
    ...(esBefore === undefined || esAfter === undefined ? {} : { esSeconds: esAfter - esBefore }),
    latencies: result.latencies,
    load: loadavg()[0]!,
  };
  const figures = figuresOf([run]);
  log(
    `round ${round + 1} ${selection.name} ${side}: ${run.ok} answers, API ${figures.apiMs.toFixed(2)} ms CPU a request, ` +
      `Elasticsearch ${figures.esMs?.toFixed(2) ?? '?'}, p50 ${figures.p50.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms (load ${run.load.toFixed(2)})`,
  );
  return run;
}

/** The figures of some runs pooled: CPU per answer (their sums over their answers), their latencies together. */
interface Figures {
  answers: number;
  apiMs: number;
  esMs?: number;
  p50: number;
  p99: number;
  max: number;
}

function figuresOf(runs: readonly Run[]): Figures {
  const answers = runs.reduce((sum, run) => sum + run.ok, 0);
  const perAnswer = (seconds: number) => (seconds * 1000) / Math.max(1, answers);
  const latencies = runs.flatMap((run) => run.latencies).sort((a, b) => a - b);
  const es = runs.every((run) => run.esSeconds !== undefined)
    ? { esMs: perAnswer(runs.reduce((sum, run) => sum + run.esSeconds!, 0)) }
    : {};
  return {
    answers,
    apiMs: perAnswer(runs.reduce((sum, run) => sum + run.apiSeconds, 0)),
    ...es,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
  };
}

/** API + Elasticsearch CPU a request (the API's alone when Elasticsearch's cannot be read). */
const cpuMs = (figures: Figures) => figures.apiMs + (figures.esMs ?? 0);
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;

function headLines(options: RollUpsOptions, records: number, live: number): string[] {
  const machine = machineInfo();
  return [
    `# Roll-ups against the plain statistics: ${records.toLocaleString('en')} records (${live.toLocaleString('en')} live)`,
    '',
    `${new Date().toISOString()}; ${machine.cores} cores (${machine.cpuModel}), load average at the start ${machine.loadAverage}; Node ${process.version}.` +
      `${options.apiRoot ? ` The API of ${options.apiRoot}.` : ''} Made by \`npm run bench -- roll-ups\`.`,
    '',
    `The compiled API, RESPONSE_CACHE_MB=0, Elasticsearch's request cache off on the index (every answer computed), ` +
      `requests with Accept-Encoding: gzip. Each selection's plain statistics and the same with group_by=developer, ` +
      `offtaker and country,technology (pivot), ${options.rate} a second over ${counted(options.connections, 'connection')}, ` +
      `evenly paced, ${options.seconds} s a side, ${counted(options.rounds, 'round')} alternating which side goes first, ` +
      `after ${counted(options.warmup, 'request')} of each. Groups: a roll-up's groups in all (a pivot's: of its ` +
      `first dimension). CPU per answer: the API's from /proc/<pid>/task/*/schedstat, ` +
      `Elasticsearch's from /proc/<pid>/stat (1/100 s ticks); latency at the client, pooled over the rounds.`,
    '',
  ];
}

function resultLines(bench: RollUpsBench, facts: Map<string, SelectionFacts>, runs: Run[]): string[] {
  const of = (selection: string, side: Side) =>
    figuresOf(runs.filter((run) => run.selection === selection && run.side === side));
  const rows: string[] = [];
  for (const { name } of bench.selections) {
    const plain = of(name, 'plain');
    const known = facts.get(name);
    for (const side of SIDES) {
      const figures = of(name, side);
      const ratios =
        side === 'plain'
          ? ''
          : `${ratio(cpuMs(figures), cpuMs(plain))} | ${figures.esMs === undefined || plain.esMs === undefined ? '' : ratio(figures.esMs, plain.esMs)} | ${ratio(figures.p50, plain.p50)}`;
      rows.push(
        `| ${name} (${known?.ppas ?? '?'} PPAs) | ${side}${side === 'plain' ? '' : ` (${counted(known?.groups[side] ?? 0, 'group')})`} | ${figures.answers} | ` +
          `${figures.apiMs.toFixed(2)} | ${figures.esMs?.toFixed(2) ?? ''} | ${figures.p50.toFixed(1)} | ${figures.p99.toFixed(1)} | ${figures.max.toFixed(1)} | ${side === 'plain' ? ' | | ' : ratios} |`,
      );
    }
  }
  return [
    '| selection | side | answers | API CPU ms a request | Elasticsearch CPU ms | p50 ms | p99 ms | max ms | ÷ plain: API + ES CPU | ÷ plain: ES CPU | ÷ plain: p50 |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    ...targetLines(bench, runs),
    '### Every run',
    '',
    '| round | selection | side | answers | API CPU ms | Elasticsearch CPU ms | p50 ms | max ms | load |',
    '|---:|---|---|---:|---:|---:|---:|---:|---:|',
    ...runs.map((run) => {
      const figures = figuresOf([run]);
      return `| ${run.round + 1} | ${run.selection} | ${run.side} | ${run.ok} | ${figures.apiMs.toFixed(2)} | ${figures.esMs?.toFixed(2) ?? ''} | ${figures.p50.toFixed(1)} | ${figures.max.toFixed(1)} | ${run.load.toFixed(2)} |`;
    }),
    '',
  ];
}

/** Issue 67's bounds: the developer roll-up with no filter against the plain request, and the deadline. */
function targetLines(bench: RollUpsBench, runs: Run[]): string[] {
  const noFilter = bench.selections[0]!.name;
  const of = (side: Side, selection?: string) =>
    figuresOf(
      runs.filter((run) => run.side === side && (selection === undefined || run.selection === selection)),
    );
  const [plain, developer] = [of('plain', noFilter), of('developer', noFilter)];
  const cpuRatio = cpuMs(developer) / cpuMs(plain);
  const p50Ratio = developer.p50 / plain.p50;
  const slowest = of('developer').max;
  const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
  return [
    '| bound (issue 67) | goal | measured | |',
    '|---|---|---:|---|',
    `| developer roll-up, no filter ÷ plain statistics: API + Elasticsearch CPU a request | ≤ ${TARGET_RATIO}× | ${cpuRatio.toFixed(2)}× | ${verdict(cpuRatio <= TARGET_RATIO)} |`,
    `| the same: p50 latency | ≤ ${TARGET_RATIO}× | ${p50Ratio.toFixed(2)}× | ${verdict(p50Ratio <= TARGET_RATIO)} |`,
    `| the slowest developer roll-up, any selection | < ES_REQUEST_TIMEOUT_MS (${DEADLINE_MS} ms) | ${slowest.toFixed(0)} ms | ${verdict(slowest < DEADLINE_MS)} |`,
    '',
  ];
}

/** A profiled API (its own process, under node --cpu-prof) over one run of each side, no filter. */
async function profileSides(bench: RollUpsBench): Promise<{ side: Side; summary: ProfileSummary }[]> {
  const { fixture, build, alias, options } = bench;
  const profiles: { side: Side; summary: ProfileSummary }[] = [];
  const pace = { connections: options.connections, ratePerSecond: options.rate };
  for (const side of ['plain', 'developer'] as const) {
    const run = (durationSeconds: number) => (url: string) =>
      runEvenlyPaced(targetOf(url, bench.selections[0]!, side), { ...pace, durationSeconds });
    const summary = await profiledApiRun(
      { build, alias, esUrl: fixture.es.url, logLevel: 'info', env: { RESPONSE_CACHE_MB: '0' } },
      { warm: run(options.warmup / options.rate), measured: run(options.seconds) },
      { top: 30, keep: options.keepProfiles === true, label: side, log },
    );
    if (summary) profiles.push({ side, summary });
  }
  return profiles;
}

/** --out, else bench/results/<date>-roll-ups.md. */
async function writeReport(options: RollUpsOptions, report: string): Promise<void> {
  const file =
    options.out ?? join(REPO_ROOT, 'bench/results', `${new Date().toISOString().slice(0, 10)}-roll-ups.md`);
  await writeFile(file, report);
  log(`wrote ${file}`);
}
