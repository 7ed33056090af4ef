// `npm run bench -- highlights`: what `highlight=true` costs (issue 46's goal: at most 15 % more Elasticsearch CPU
// and 0.2 ms more API CPU a request). Over a generated corpus, distinct text searches of the list (the mix's
// list_q kind, its page sizes: mostly the default 25):
//   1. the presenter alone, in this process: highlighter() over the answers the API gave for them, per page and
//      per item, at first sight (its caches emptied before each pass, as under a no-repeat mix) and warm;
//   2. the API as deployed (compiled, its response cache off so that every request is computed), the same requests
//      without and with `highlight=true`, evenly paced, in rounds of fresh requests, the two sides alternating
//      first; the API's and Elasticsearch's CPU per request read from /proc around each side; in two regimes: light
//      (--rate, well under capacity) and loaded (80 % of the capacity measured first, 8 connections);
//   3. with --profile, a CPU profile of the API on each side (--keep-profiles leaves the files).
// Writes bench/results/<date>-highlights.md unless --no-write. --api-root DIR runs another checkout's API and
// presenter (a `git worktree` of the commit before a change, inside this checkout so that it finds its packages)
// with the same load, for a before/after.
import { Option } from 'commander';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { positiveInteger } from '../indexer/optionParsers.js';
import { pathToFileURL } from 'node:url';
import type * as PresenterModule from '../src/matching/highlight/highlighter.js';
import type { HighlightSource } from '../src/matching/highlight/itemHighlights.js';
import { withFixture, type BenchFixture } from './fixture.js';
import { apiModeOf, defineSuite, type SharedOptions } from './suite.js';
import { profiledApiRun, REPO_ROOT, type ApiBuild, type ApiProcess } from './perf/apiProcess.js';
import type { GeneratedCorpus } from './perf/loadCorpus.js';
import { localEsPid } from './perf/cpuSplit.js';
import { localNodeInfo } from './perf/rawElasticsearch.js';
import { apiTarget, median, runLoad } from './perf/load.js';
import { cpuSecondsIfLocal, machineInfo, preciseCpuSeconds } from './perf/machine.js';
import { buildTextSearchMix, type MixRequest } from './perf/requestMix.js';
import { runEvenlyPaced } from './perf/pacedLoad.js';
import { profileLines, type ProfileSummary } from './perf/profile.js';

interface HighlightsOptions extends SharedOptions {
  rounds: number;
  perRound: number;
  warmup?: number;
  rate: number;
  connections: number;
  apiRoot?: string;
  encoding: 'gzip' | 'identity';
  presenterOnly?: boolean;
  profile?: boolean;
  keepProfiles?: boolean;
  out?: string;
}

export default defineSuite<HighlightsOptions>({
  name: 'highlights',
  module: import.meta.url,
  summary: 'what highlight=true costs: the presenter alone, and the API without and with it',
  count: 20_000,
  seed: 20261127,
  writes: true,
  options: (command) =>
    command
      .option(
        '--rounds <n>',
        'measured rounds (each side once per round, fresh requests each round)',
        positiveInteger,
        4,
      )
      .option('--per-round <n>', 'requests per side and round', positiveInteger, 600)
      .option(
        '--warmup <n>',
        'requests per side before the rounds (default: a round of them)',
        positiveInteger,
      )
      .option('--rate <n>', 'requests per second, evenly paced', positiveInteger, 60)
      .option('--connections <n>', 'connections of the paced load', positiveInteger, 4)
      .option('--api-root <dir>', "another checkout's API (a before/after)")
      .addOption(
        new Option('--encoding <coding>', 'what the requests accept: gzip, as browsers send it, or identity')
          .choices(['gzip', 'identity'])
          .default('gzip'),
      )
      .option('--presenter-only', 'only the presenter, in this process')
      .option(
        '--profile',
        'then a CPU profile of the API (its own process, under node --cpu-prof) over one round of each side',
      )
      .option('--keep-profiles', 'with --profile: leave the .cpuprofile files (their paths are logged)')
      .option('--out <file>', 'results file (default bench/results/<date>-highlights.md)'),
  quick: { count: 300, args: ['--rounds', '1', '--per-round', '30', '--rate', '30'] },
  run: highlights,
});

/** The loaded regime: this share of the capacity measured, over this many connections. */
const LOADED_SHARE = 0.8;
const LOADED_CONNECTIONS = 8;
/** The regimes, in the order they run: light (--rate), loaded. */
const LOAD_NAMES = ['light', 'loaded'] as const;
type Side = 'without' | 'with';
type LoadName = (typeof LOAD_NAMES)[number];
interface Load {
  name: LoadName;
  connections: number;
  rate: number;
  /** Answers a second in a closed loop (the loaded regime's reference). */
  capacity?: number;
}
interface Row {
  load: LoadName;
  round: number;
  side: Side;
  ok: number;
  apiMs: number;
  mainMs: number;
  esMs?: number;
}
const log = (line: string) => process.stderr.write(`highlights: ${line}\n`);
const withHighlight = (request: MixRequest): MixRequest => ({
  ...request,
  apiPath: `${request.apiPath}&highlight=true`,
});

/** The presenter measured: its highlighter over the kept words, and how to forget them (a pass at first sight). */
interface Presenter {
  highlighter(q: string): ReturnType<typeof PresenterModule.highlighter>;
  forget(): void;
}

interface Page {
  q: string;
  items: HighlightSource[];
}

/** One pass of the presenter over every page, in µs; `cold`: its caches emptied first. */
function presenterPass(presenter: Presenter, pages: readonly Page[], cold: boolean): number {
  const { forget, highlighter } = presenter;
  if (cold) forget();
  const started = performance.now();
  let sink = 0;
  for (const page of pages) {
    const highlight = highlighter(page.q);
    for (const item of page.items) sink += Object.keys(highlight(item)).length;
  }
  const micros = (performance.now() - started) * 1000;
  if (sink < 0) log('unreachable'); // keeps the results used
  return micros;
}

/** The median of several passes (µs per pass), after two passes to warm the JIT. */
function presenterMicros(presenter: Presenter, pages: readonly Page[], cold: boolean): number {
  presenterPass(presenter, pages, cold);
  presenterPass(presenter, pages, cold);
  const passes: number[] = [];
  const until = performance.now() + 3000;
  while (passes.length < 5 || performance.now() < until) passes.push(presenterPass(presenter, pages, cold));
  passes.sort((a, b) => a - b);
  return passes[Math.floor(passes.length / 2)]!;
}

/** The highlighter's module in another checkout: where the matching model keeps it, or (before it) the presenter's. */
function presenterPath(apiRoot: string): string {
  const model = join(apiRoot, 'src/matching/highlight/highlighter.ts');
  return existsSync(model) ? model : join(apiRoot, 'src/present/highlights.ts');
}

async function highlights(options: HighlightsOptions): Promise<void> {
  const presenter = await loadPresenter(options);
  await withFixture('highlights', async (fixture) => {
    const bench = await setUpBench(fixture, options);
    const sets = requestSets(options, bench.corpus.sample);
    const presenterFigures = await measurePresenter(presenter, bench, sets);
    const node = await localNodeInfo(fixture.es);
    const esPid = await localEsPid(node.pid);
    const { rows, loads } = options.presenterOnly
      ? { rows: [], loads: [] }
      : await measureApi(bench, sets, esPid);
    const profiles = options.profile ? await profileSides(bench, sets) : [];
    const report = [
      ...headLines(options),
      ...presenterLines(presenterFigures),
      ...(rows.length > 0 ? apiLines(options, sets, rows, loads) : []),
      ...profiles.flatMap(({ side, summary }) => [
        `## Profile of the API, ${side} highlight=true (one round)`,
        '',
        ...profileLines(summary),
        '',
      ]),
    ].join('\n');
    process.stdout.write(`${report}\n`);
    if (options.write) await writeReport(options, report);
  });
}

/** The presenter measured: this checkout's, or that of --api-root (loaded from its sources, as tsx runs this bench). */
async function loadPresenter(options: HighlightsOptions): Promise<Presenter> {
  const module = (await import(
    options.apiRoot
      ? pathToFileURL(presenterPath(options.apiRoot)).href
      : '../src/matching/highlight/highlighter.js'
  )) as Partial<typeof PresenterModule> & { forgetHighlightCaches?: () => void };
  const highlighter = module.highlighter!;
  // This release's presenter keeps the served words in an object the app owns; an older one, in its module.
  if (module.ServedWordForms) {
    const forms = new module.ServedWordForms();
    return { highlighter: (q) => highlighter(q, 'list', forms), forget: () => forms.clear() };
  }
  return { highlighter: (q) => highlighter(q), forget: () => module.forgetHighlightCaches?.() };
}

/** What every step shares: the options, the index and its corpus, the API build and process, the client's headers. */
interface HighlightsBench {
  options: HighlightsOptions;
  fixture: BenchFixture;
  alias: string;
  corpus: GeneratedCorpus;
  build: ApiBuild;
  api: ApiProcess;
  /**
   * The client's headers: Accept-Encoding: gzip by default, as browsers send it and as the other benchmarks' clients
   * do (the API then answers a page in about 2 KB rather than 8). Without it (identity) most of what a highlighted
   * answer adds is the bytes written to the socket: a page's highlights are about 7 % more JSON.
   */
  headers: Record<string, string> | undefined;
}

/** The corpus indexed, the API built and started with its response cache off (every request computed). */
async function setUpBench(fixture: BenchFixture, options: HighlightsOptions): Promise<HighlightsBench> {
  const { alias, corpus } = await fixture.indexedCorpus({
    count: options.count,
    seed: options.seed,
    sampleSize: Math.min(20_000, Math.max(500, Math.floor(options.count / 4))),
  });
  const build = await fixture.build(apiModeOf(options), options.apiRoot);
  const api = await fixture.startApi({ build, alias, logLevel: 'info', env: { RESPONSE_CACHE_MB: '0' } });
  const headers = options.encoding === 'gzip' ? { 'Accept-Encoding': 'gzip' } : undefined;
  return { options, fixture, alias, corpus, build, api, headers };
}

/** The text searches: the warm-up's, then each regime's rounds, each round's requests fresh. */
interface RequestSets {
  /** Every request, the warm-up's first. */
  requests: MixRequest[];
  warmup: MixRequest[];
  /** Per regime (LOAD_NAMES' order), per round. */
  rounds: MixRequest[][][];
}

function requestSets(options: HighlightsOptions, sample: GeneratedCorpus['sample']): RequestSets {
  const warmupSize = options.warmup ?? options.perRound;
  const requests = buildTextSearchMix(sample, {
    seed: options.seed,
    size: warmupSize + options.perRound * options.rounds * LOAD_NAMES.length,
  });
  const warmup = requests.slice(0, warmupSize);
  // Each regime's rounds, each round's requests fresh (none sent in another round or regime).
  const rounds = Array.from({ length: LOAD_NAMES.length }, (_, load) =>
    Array.from({ length: options.rounds }, (_, round) => {
      const from = warmupSize + options.perRound * (load * options.rounds + round);
      return requests.slice(from, from + options.perRound);
    }),
  );
  return { requests, warmup, rounds };
}

/** The presenter's figures: the pages it went over, their items, µs a pass at first sight and warm. */
interface PresenterFigures {
  pages: number;
  items: number;
  cold: number;
  warm: number;
}

/** 1. The presenter alone, over the API's answers to the measured requests. */
async function measurePresenter(
  presenter: Presenter,
  { api }: HighlightsBench,
  { requests, warmup }: RequestSets,
): Promise<PresenterFigures> {
  const pages: Page[] = [];
  // Up to 600 of the measured requests (however they are cut into rounds).
  for (const request of requests.slice(warmup.length, warmup.length + 600)) {
    const answer = await fetch(`${api.url}${request.apiPath}`);
    if (!answer.ok) throw new Error(`${request.apiPath}: HTTP ${answer.status}`);
    const body = (await answer.json()) as { data: HighlightSource[] };
    pages.push({ q: new URL(request.apiPath, api.url).searchParams.get('q') ?? '', items: body.data });
  }
  const items = pages.reduce((sum, page) => sum + page.items.length, 0);
  const cold = presenterMicros(presenter, pages, true);
  const warm = presenterMicros(presenter, pages, false);
  log(
    `presenter: ${pages.length} pages, ${items} items; ${(cold / pages.length).toFixed(1)} µs a page at first sight, ${(warm / pages.length).toFixed(1)} warm`,
  );
  return { pages: pages.length, items, cold, warm };
}

/**
 * 2. The API, without and with highlight=true, in two regimes (`loads`): light, at --rate; and loaded, at
 * LOADED_SHARE of the capacity measured here first. A CPU figure per request differs between them: at a light rate
 * each request finds the processor's caches refilled by Elasticsearch's work since the one before, and the whole
 * API costs more per request than under load (docs/performance.md, "Highlights").
 */
async function measureApi(
  bench: HighlightsBench,
  sets: RequestSets,
  esPid: number | undefined,
): Promise<{ rows: Row[]; loads: Load[] }> {
  await warmUpSides(bench, sets.warmup);
  const loads = await regimes(bench, sets.warmup);
  const rows: Row[] = [];
  for (const [index, load] of loads.entries()) {
    for (const [round, set] of sets.rounds[index]!.entries()) {
      const order: Side[] = round % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
      for (const side of order) rows.push(await measureSide(bench, esPid, load, round, side, set));
    }
  }
  return { rows, loads };
}

/** The warm-up's requests, evenly paced at --rate, without then with highlight=true. */
async function warmUpSides({ api, headers, options }: HighlightsBench, warmup: MixRequest[]): Promise<void> {
  for (const side of ['without', 'with'] as const) {
    const set = side === 'with' ? warmup.map(withHighlight) : warmup;
    await runEvenlyPaced(apiTarget(api.url, set, headers), {
      connections: options.connections,
      ratePerSecond: options.rate,
      durationSeconds: set.length / options.rate,
    });
  }
}

/** The two regimes: light at --rate, loaded at LOADED_SHARE of the capacity measured now. */
async function regimes({ api, headers, options }: HighlightsBench, warmup: MixRequest[]): Promise<Load[]> {
  // Capacity: the warm-up's requests (without) in a closed loop, as many as the API answers.
  const capacity = await runLoad(apiTarget(api.url, warmup, headers), {
    connections: LOADED_CONNECTIONS,
    durationSeconds: 0,
    amount: warmup.length,
  });
  log(
    `capacity: ${capacity.requestsPerSecond.toFixed(0)} answers a second (${LOADED_CONNECTIONS} connections, closed loop)`,
  );
  return [
    { name: 'light', connections: options.connections, rate: options.rate },
    {
      name: 'loaded',
      connections: LOADED_CONNECTIONS,
      rate: Math.max(1, Math.round(capacity.requestsPerSecond * LOADED_SHARE)),
      capacity: capacity.requestsPerSecond,
    },
  ];
}

/** One side of one round, evenly paced: the API's and Elasticsearch's CPU per answered request. */
async function measureSide(
  { api, headers }: HighlightsBench,
  esPid: number | undefined,
  load: Load,
  round: number,
  side: Side,
  set: MixRequest[],
): Promise<Row> {
  const sent = side === 'with' ? set.map(withHighlight) : set;
  const apiBefore = await preciseCpuSeconds(api.pid);
  const esBefore = await cpuSecondsIfLocal(esPid);
  const result = await runEvenlyPaced(apiTarget(api.url, sent, headers), {
    connections: load.connections,
    ratePerSecond: load.rate,
    durationSeconds: sent.length / load.rate,
  });
  const apiAfter = await preciseCpuSeconds(api.pid);
  const apiMs = ((apiAfter.process - apiBefore.process) * 1000) / Math.max(1, result.ok);
  const mainMs = ((apiAfter.mainThread - apiBefore.mainThread) * 1000) / Math.max(1, result.ok);
  const esAfter = await cpuSecondsIfLocal(esPid);
  const esMs =
    esBefore === undefined || esAfter === undefined
      ? undefined
      : ((esAfter - esBefore) * 1000) / Math.max(1, result.ok);
  if (result.errors > 0) throw new Error(`${load.name}, ${side}: ${result.errors} failed requests`);
  log(
    `${load.name} round ${round + 1} ${side}: ${result.ok} answers, API ${apiMs.toFixed(3)} ms CPU a request (main thread ${mainMs.toFixed(3)})` +
      `${esMs === undefined ? '' : `, Elasticsearch ${esMs.toFixed(3)}`} (load ${loadavg()[0]!.toFixed(2)})`,
  );
  return {
    load: load.name,
    round,
    side,
    ok: result.ok,
    apiMs,
    mainMs,
    ...(esMs === undefined ? {} : { esMs }),
  };
}

/** 3. Where the API's time goes on each side: a profiled API over the first round's requests. */
async function profileSides(
  { fixture, build, alias, headers, options }: HighlightsBench,
  { warmup, rounds }: RequestSets,
): Promise<{ side: Side; summary: ProfileSummary }[]> {
  const profiles: { side: Side; summary: ProfileSummary }[] = [];
  const pace = { connections: options.connections, ratePerSecond: options.rate };
  for (const side of ['without', 'with'] as const) {
    const sent = (set: MixRequest[]) => (side === 'with' ? set.map(withHighlight) : set);
    const run = (set: MixRequest[]) => (url: string) =>
      runEvenlyPaced(apiTarget(url, sent(set), headers), {
        ...pace,
        durationSeconds: set.length / options.rate,
      });
    const summary = await profiledApiRun(
      {
        build,
        alias,
        esUrl: fixture.es.url,
        logLevel: 'info',
        // A highlighted page costs a tenth of a millisecond or so: sampled finer than node's 1 ms.
        cpuProfileIntervalMicros: 200,
        env: { RESPONSE_CACHE_MB: '0' },
      },
      { warm: run(warmup), measured: run(rounds[0]![0]!) },
      { top: 30, keep: options.keepProfiles === true, label: side, log },
    );
    if (summary) profiles.push({ side, summary });
  }
  return profiles;
}

function headLines(options: HighlightsOptions): string[] {
  const machine = machineInfo();
  return [
    `# What highlight=true costs: ${options.count.toLocaleString('en')} records, distinct text searches`,
    '',
    `${new Date().toISOString()}; ${machine.cores} cores (${machine.cpuModel}), load average at the start ${machine.loadAverage}; Node ${process.version}.` +
      `${options.apiRoot ? ` The API of ${options.apiRoot}.` : ''} Made by \`npm run bench -- highlights\`.`,
    '',
  ];
}

function presenterLines({ pages, items, cold, warm }: PresenterFigures): string[] {
  return [
    '## The presenter alone',
    '',
    `highlighter() in this process over the API's answers to ${pages} distinct text searches of the list ` +
      `(${items} items, ${(items / pages).toFixed(1)} a page), the median of the passes over 3 s or more.`,
    '',
    '| caches | µs a page | µs an item |',
    '|---|---:|---:|',
    `| emptied before each pass (first sight) | ${(cold / pages).toFixed(1)} | ${(cold / items).toFixed(2)} |`,
    `| warm | ${(warm / pages).toFixed(1)} | ${(warm / items).toFixed(2)} |`,
    '',
  ];
}

/** The API's section: how it was measured, a row per regime, the targets, the rounds' spread, every round. */
function apiLines(options: HighlightsOptions, sets: RequestSets, rows: Row[], loads: Load[]): string[] {
  const mean = (load: LoadName, side: Side, key: 'apiMs' | 'mainMs' | 'esMs') => {
    const values = rows
      .filter((row) => row.load === load && row.side === side)
      .map((row) => row[key] ?? Number.NaN);
    return values.reduce((sum, value) => sum + value, 0) / values.length;
  };
  const regimeRows: string[] = [];
  const verdicts: string[] = [];
  const spreads: string[] = [];
  for (const load of loads) {
    const apiDelta = mean(load.name, 'with', 'apiMs') - mean(load.name, 'without', 'apiMs');
    const roundDeltas = deltasOf(rows, load.name);
    const esRatio = mean(load.name, 'with', 'esMs') / mean(load.name, 'without', 'esMs');
    regimeRows.push(
      `| ${load.name} | ${load.connections} | ${load.rate}${load.capacity ? ` (capacity ${load.capacity.toFixed(0)})` : ''} | ${mean(load.name, 'without', 'apiMs').toFixed(3)} | ${apiDelta.toFixed(3)} ms | ${median(roundDeltas).toFixed(3)} | ${(mean(load.name, 'with', 'mainMs') - mean(load.name, 'without', 'mainMs')).toFixed(3)} ms | ${esRatio.toFixed(2)}× |`,
    );
    verdicts.push(
      `| ${load.name}: API CPU a request, with − without | ≤ 0.2 ms | ${apiDelta.toFixed(3)} ms | ${apiDelta <= 0.2 ? 'met' : 'MISSED'} |`,
      `| ${load.name}: Elasticsearch CPU a request, with ÷ without | ≤ 1.15× | ${esRatio.toFixed(2)}× | ${esRatio <= 1.15 ? 'met' : 'MISSED'} |`,
    );
    spreads.push(
      `The rounds' differences (${load.name}), API CPU ms a request: ${roundDeltas.map((delta) => delta.toFixed(2)).join(', ')}.`,
      '',
    );
  }
  return [
    '## The API, without and with highlight=true',
    '',
    `The compiled API, RESPONSE_CACHE_MB=0 (every request computed); ${options.perRound} distinct text searches a side and round, ${options.encoding === 'gzip' ? 'each with Accept-Encoding: gzip (as browsers send it)' : 'without Accept-Encoding (identity answers)'}, ` +
      `evenly paced; ${options.rounds} rounds of fresh requests in each regime, ` +
      `the sides alternating first, after a warm-up of ${sets.warmup.length} each. CPU per answered request: the API's from the scheduler's count per thread (/proc/<pid>/task/*/schedstat, nanoseconds), Elasticsearch's from /proc/<pid>/stat (1/100 s ticks). ` +
      'Two regimes: **light**, well under capacity, where each request finds the caches of the processor refilled by ' +
      "Elasticsearch's work since the one before; **loaded**, at " +
      `${LOADED_SHARE * 100} % of the capacity measured first (the warm-up's requests without highlight=true in a closed loop), where the CPU a request costs is what limits the answers a second.`,
    '',
    '| regime | connections | requests a second | API CPU ms, without | with − without (mean) | median of the rounds | of which main thread | Elasticsearch, with ÷ without |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...regimeRows,
    '',
    '| target | goal | measured |  |',
    '|---|---|---:|---|',
    ...verdicts,
    '',
    ...spreads,
    '### Every round',
    '',
    '| regime | round | side | answers | API CPU ms | its main thread | Elasticsearch CPU ms |',
    '|---|---:|---|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.load} | ${row.round + 1} | ${row.side} | ${row.ok} | ${row.apiMs.toFixed(3)} | ${row.mainMs.toFixed(3)} | ${row.esMs?.toFixed(3) ?? ''} |`,
    ),
    '',
  ];
}

/** --out, else bench/results/<date>-highlights.md. */
async function writeReport(options: HighlightsOptions, report: string): Promise<void> {
  const file =
    options.out ?? join(REPO_ROOT, 'bench/results', `${new Date().toISOString().slice(0, 10)}-highlights.md`);
  await writeFile(file, report);
  log(`wrote ${file}`);
}

/** Each round's difference (with − without, API CPU ms a request) in one regime, sorted: their spread. */
function deltasOf(rows: readonly Row[], load: LoadName): number[] {
  const of = (round: number, side: Side) =>
    rows.find((row) => row.load === load && row.round === round && row.side === side)!.apiMs;
  const rounds = [...new Set(rows.filter((row) => row.load === load).map((row) => row.round))];
  return rounds.map((round) => of(round, 'with') - of(round, 'without')).sort((a, b) => a - b);
}
