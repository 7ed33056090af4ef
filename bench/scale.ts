// `npm run bench -- scale` runs this file: the public-traffic benchmark of issue
// 21, API (its own compiled process, response cache on as deployed) against raw Elasticsearch `_search` with the
// very bodies the API sends, each figure with the machine's load average:
//   (a) no-repeat mix: no request sent twice in a run (so no cache can help), 16 connections and 1 connection;
//   (b) Zipf mix: 5,000 distinct requests, popularity Zipf s = 1.0, the same sequence on both sides (`--trickle S`:
//       while one document changes in place every S seconds, as sync changes it, so the caches are dropped);
//   (c) statistics: distinct filtered requests at 16 connections (Elasticsearch's request cache off, so every
//       answer is computed), and the unfiltered statistics asked again and again (request cache on).
// Both sides get the same client: every request carries `Accept-Encoding: gzip` as browsers send it (the API
// compresses at level 1, Elasticsearch at its http.compression default); raw requests otherwise carry what the
// API's Elasticsearch client sends (`--raw-identity`: no Accept-Encoding on the raw side).
// Both sides are warmed with 3,000 requests of their own first (a freshly started API is still compiling its hot
// code); the measured runs alternate A B / B A, four rounds, each on a fresh request set. `--cpu-split` measures
// the production shape instead: Elasticsearch on CPU 0, the API and the load generator on CPU 1. `--raw-q plain`
// measures what the forgiving `q` costs a user's traffic (issue 47): the raw side's text searches send a plain
// fuzzy multi_match instead of the API's text query (bench/perf/reference.ts, the first letter as typed), everything else as
// the API sends.
//
//   npm run bench -- scale --count 100000            # writes bench/results/<date>-scale.md and .json
//   npm run bench -- scale --quick                   # its quick form: seconds, prints only
import type { Client } from '@elastic/elasticsearch';
import { Option } from 'commander';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { positiveInteger } from '../indexer/optionParsers.js';
import { withFixture, type BenchFixture } from './fixture.js';
import { apiModeOf, defineSuite, namesOf, type SharedOptions } from './suite.js';
import { newestProfile, REPO_ROOT, type ApiBuild, type ApiProcess } from './perf/apiProcess.js';
import {
  profileClockMicros,
  profileLines,
  summariseProfileFile,
  type ProfileSummary,
} from './perf/profile.js';
import {
  applyCpuSplit,
  BENCH_CPU,
  cpuSplitLine,
  cpuSplitProblem,
  localEsPid,
  type CpuSplit,
} from './perf/cpuSplit.js';
import { localNodeHttpPort, localNodeInfo, setRequestCache, type EsTarget } from './perf/rawElasticsearch.js';
import type { GeneratedCorpus } from './perf/loadCorpus.js';
import { startTrickle } from './perf/trickle.js';
import { apiTarget, quantile, rawTarget, runLoad, type LoadResult } from './perf/load.js';
import { machineInfo, processCpuSeconds } from './perf/machine.js';
import {
  buildDistinctMix,
  buildStatisticsMix,
  mixRequest,
  zipfSequence,
  type MixRequest,
} from './perf/requestMix.js';
import { referenceRequest } from './perf/reference.js';
import { verifyMix } from './perf/verify.js';

const SECTIONS = ['a16', 'a1', 'zipf', 'stats', 'repeat'] as const;
type Section = (typeof SECTIONS)[number];

interface ScaleOptions extends SharedOptions {
  cacheMb: string;
  out?: string;
  apiRoot?: string;
  only?: Section[];
  profile?: boolean;
  rawIdentity?: boolean;
  cpuSplit?: boolean;
  trickle?: number;
  zipfLength?: number;
  rawQ: 'api' | 'plain';
  connections: number;
}

export default defineSuite<ScaleOptions>({
  name: 'scale',
  module: import.meta.url,
  summary: 'public traffic: no-repeat and Zipf mixes, statistics (--trickle S: changes in place meanwhile)',
  count: 100_000,
  seed: 20261122,
  writes: true,
  options: (command) =>
    command
      .option('--cache-mb <n>', 'RESPONSE_CACHE_MB of the API', '32')
      .option('--out <base>', 'results file base name (default bench/results/<date>-scale)')
      .option('--api-root <dir>', "another checkout's API, with this checkout's load (a before/after)")
      .option(
        '--only <sections>',
        'run only these sections, comma-separated: a16, a1, zipf, stats, repeat (the results file names them)',
        namesOf(SECTIONS, 'section'),
      )
      .option(
        '--profile',
        "then a CPU profile of the API under the no-repeat mix, at the run's connections, with gzip",
      )
      .option(
        '--raw-identity',
        'raw Elasticsearch requests without Accept-Encoding (the API side keeps gzip)',
      )
      .option(
        '--trickle <seconds>',
        'during the Zipf mix, one change in place every so many seconds, as sync makes it (bench/perf/trickle.ts)',
        positiveInteger,
      )
      .option('--zipf-length <n>', 'requests per Zipf run', positiveInteger)
      .option(
        '--connections <n>',
        'connections of the closed loops (a run stops on more than 1 % failed requests: a closed loop must never be refused)',
        positiveInteger,
        16,
      )
      .option(
        '--cpu-split',
        'Elasticsearch on CPU 0, the API and this process on CPU 1 (bench/perf/cpuSplit.ts)',
      )
      .addOption(
        new Option(
          '--raw-q <query>',
          "the raw side's text query: the API's own, or a plain fuzzy multi_match",
        )
          .choices(['api', 'plain'])
          .default('api'),
      ),
  // One connection: on a machine busy with other work, more would meet the admission control's refusals.
  quick: { count: 300, args: ['--connections', '1'] },
  run: scale,
});

const log = (message: string) => process.stderr.write(`scale: ${message}\n`);
const load1 = () => Number(loadavg()[0]!.toFixed(2));
const GZIP = { 'Accept-Encoding': 'gzip' };

interface RunFigures {
  side: 'api' | 'raw';
  connections: number;
  requests: number;
  ok: number;
  errors: number;
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  /** ms of API process CPU per answered request (API runs only). */
  apiCpuMs?: number;
  /** ms of Elasticsearch process CPU per answered request, when it runs on this machine (both sides). */
  esCpuMs?: number;
  /** 1-minute load average when the run ended. */
  load: number;
}

function figures(result: LoadResult, apiCpuSeconds?: number, esCpuSeconds?: number): RunFigures {
  return {
    side: result.side,
    connections: result.connections,
    requests: result.ok + result.errors,
    ok: result.ok,
    errors: result.errors,
    requestsPerSecond: result.requestsPerSecond,
    p50: quantile(result.latencies, 0.5),
    p90: quantile(result.latencies, 0.9),
    p99: quantile(result.latencies, 0.99),
    ...(apiCpuSeconds !== undefined ? { apiCpuMs: (apiCpuSeconds * 1000) / Math.max(1, result.ok) } : {}),
    ...(esCpuSeconds !== undefined ? { esCpuMs: (esCpuSeconds * 1000) / Math.max(1, result.ok) } : {}),
    load: load1(),
  };
}

async function scale(options: ScaleOptions): Promise<void> {
  await withFixture('scale', async (fixture) => {
    const bench = await setUpBench(fixture, options);
    const sets = requestSets(options, bench.corpus.sample);
    await verifyAgreement(bench, sets.warmup);
    await warmUpBothSides(bench, sets.warmup);
    const measured: SectionRows = {
      ...(await noRepeatSections(bench, sets)),
      b: await zipfSection(bench, sets),
      c16: await filteredStatisticsSection(bench, sets),
      cRepeat: await repeatedStatisticsSection(bench, sets),
    };
    const profile = options.profile ? await profileTheApi(bench, sets) : undefined;
    const summary = summarise(measured, options.connections);
    // Measuring is over: Elasticsearch gets its cores back now.
    await bench.split?.restore();
    const report = await reportOf(bench, sets, measured, summary);
    process.stdout.write(`${report.markdown}\n`);
    if (profile)
      process.stdout.write(
        `\n### API CPU profile (no-repeat mix, ${options.connections} connections, gzip)\n\n${profileLines(profile).join('\n')}\n`,
      );
    if (options.write) await writeResults(bench, report);
  });
}

/** What every step of a run shares: the options, the fixture's index and corpus, the API measured, the CPU split. */
interface ScaleBench {
  options: ScaleOptions;
  fixture: BenchFixture;
  es: EsTarget;
  alias: string;
  client: Client;
  corpus: GeneratedCorpus;
  build: ApiBuild;
  /** Elasticsearch's process when it runs on this machine: its CPU per request is read on both sides. */
  esPid: number | undefined;
  split: CpuSplit | undefined;
  /** The API process measured now: a fresh one for each Zipf round and for the profile. */
  api: ApiProcess;
  /** The raw side's headers: gzip as on the API side, none with --raw-identity. */
  rawHeaders: Record<string, string> | undefined;
}

/** The bench before its first API process starts. */
type BenchWithoutApi = Omit<ScaleBench, 'api'> & { api?: ApiProcess };

/** Whether a section runs (all of them unless --only names some). */
const runsSection = (options: ScaleOptions, section: Section) => options.only?.includes(section) ?? true;

/** The corpus indexed, the API built, the CPU split applied (--cpu-split), and the first API started. */
async function setUpBench(fixture: BenchFixture, options: ScaleOptions): Promise<ScaleBench> {
  const { es } = fixture;
  log(`${options.count} records: generating and indexing (load ${load1()})…`);
  const { alias, client, corpus } = await fixture.indexedCorpus({
    count: options.count,
    seed: options.seed,
    sampleSize: Math.min(20_000, Math.max(500, Math.floor(options.count / 4))),
  });
  const build = await fixture.build(apiModeOf(options), options.apiRoot);
  const esNode = await localNodeInfo(es);
  const esPid = await localEsPid(esNode.pid);
  const split = options.cpuSplit ? await splitCpus(fixture, esPid, esNode.pid) : undefined;
  const rawHeaders = options.rawIdentity ? undefined : GZIP;
  const bench: BenchWithoutApi = {
    options,
    fixture,
    es,
    alias,
    client,
    corpus,
    build,
    esPid,
    split,
    rawHeaders,
  };
  return { ...bench, api: await startTheApi(bench) };
}

/** --cpu-split: Elasticsearch on its CPU, the API and this process on the other; undone at the end or on exit. */
async function splitCpus(fixture: BenchFixture, esPid: number | undefined, nodePid: number | undefined) {
  const problem = await cpuSplitProblem(esPid, nodePid, await localNodeHttpPort(fixture.es));
  if (problem) throw new Error(`--cpu-split is not possible here: ${problem}`);
  // After the indexing and the compile (they need not run on one core); before anything measured.
  return applyCpuSplit(esPid!, log, (changing) => {
    fixture.defer(() => changing.restore());
    process.on('exit', () => changing.restoreSync());
  });
}

/** A fresh API process in place of the one measured so far (optionally under node --cpu-prof). */
async function startTheApi(bench: BenchWithoutApi, cpuProfileDir?: string): Promise<ApiProcess> {
  await bench.api?.stop();
  bench.api = await bench.fixture.startApi({
    build: bench.build,
    alias: bench.alias,
    logLevel: 'info',
    env: { RESPONSE_CACHE_MB: bench.options.cacheMb },
    ...(cpuProfileDir ? { cpuProfileDir } : {}),
    ...(bench.split ? { cpu: BENCH_CPU } : {}),
  });
  return bench.api;
}

/** Request sets, all disjoint: warm-up, no-repeat rounds, Zipf pool, statistics rounds. */
interface RequestSets {
  rounds: number;
  warmup: MixRequest[];
  noRepeat16: MixRequest[][];
  noRepeat1: MixRequest[][];
  zipfPool: MixRequest[];
  zipfLength: number;
  zipf: MixRequest[][];
  stats16: MixRequest[][];
  unfiltered: MixRequest[];
  profileSet: MixRequest[];
}

function requestSets(options: ScaleOptions, sample: GeneratedCorpus['sample']): RequestSets {
  const { quick, connections } = options;
  const perConnection = quick ? 5 : 150;
  const oneConnection = quick ? 10 : 500;
  const used = new Set<string>();
  const take = (mix: MixRequest[]) => {
    for (const request of mix) used.add(request.apiPath);
    return mix;
  };
  const distinct = (size: number, salt: number) =>
    take(buildDistinctMix(sample, { seed: options.seed + salt, size, exclude: used }));
  const rounds = quick ? 1 : 4;
  const warmup = distinct(quick ? 10 : 3_000, 1);
  const noRepeat16 = Array.from({ length: rounds }, (_, round) =>
    distinct(perConnection * connections, 10 + round),
  );
  const noRepeat1 = Array.from({ length: rounds }, (_, round) => distinct(oneConnection, 20 + round));
  const zipfPool = distinct(quick ? 200 : 5_000, 6);
  const zipfLength = options.zipfLength ?? (quick ? 40 : 6_400);
  const zipf = [1, 2].map((round) =>
    zipfSequence(zipfPool, { seed: options.seed + round, length: zipfLength, s: 1 }),
  );
  const statsSize = quick ? 8 : 60 * connections;
  const stats16 = Array.from({ length: rounds }, (_, round) =>
    take(buildStatisticsMix(sample, { seed: options.seed + 100 + round, size: statsSize, exclude: used })),
  );
  const unfiltered = [mixRequest('statistics', '')];
  const profileSet = distinct(perConnection * connections, 7);
  return {
    rounds,
    warmup,
    noRepeat16,
    noRepeat1,
    zipfPool,
    zipfLength,
    zipf,
    stats16,
    unfiltered,
    profileSet,
  };
}

/** Agreement first: the API and raw Elasticsearch give the same totals. */
async function verifyAgreement(bench: ScaleBench, warmup: MixRequest[]): Promise<void> {
  const verify = await verifyMix(warmup.slice(0, 100), bench.api.url, bench.es, bench.alias, 100);
  if (verify.mismatches.length > 0)
    throw new Error(`API and raw disagree: ${JSON.stringify(verify.mismatches[0])}`);
  log(`verified ${verify.checked} requests`);
}

/** The load of one side: the API with gzip, or raw Elasticsearch with the API's bodies (--raw-q plain: plain text). */
function targetOf(bench: ScaleBench, side: 'api' | 'raw', requests: MixRequest[]) {
  return side === 'api'
    ? apiTarget(bench.api.url, requests, GZIP)
    : rawTarget(
        bench.es,
        bench.alias,
        bench.options.rawQ === 'plain' ? requests.map((request) => referenceRequest(request, 1)) : requests,
        bench.rawHeaders,
      );
}

/** The warm-up set sent once, in a closed loop of the run's connections, to one side. */
async function warmUp(bench: ScaleBench, side: 'api' | 'raw', warmup: MixRequest[]): Promise<void> {
  const { connections } = bench.options;
  await runLoad(targetOf(bench, side, warmup), {
    connections,
    durationSeconds: 0,
    amount: warmup.length - (warmup.length % connections),
  });
}

async function warmUpBothSides(bench: ScaleBench, warmup: MixRequest[]): Promise<void> {
  for (const side of ['api', 'raw'] as const) await warmUp(bench, side, warmup);
}

/** One run of `requests` (each sent once per side unless `repeatSeconds`), API or raw. */
async function measureRun(
  bench: ScaleBench,
  side: 'api' | 'raw',
  requests: MixRequest[],
  conns: number,
  repeatSeconds?: number,
): Promise<RunFigures> {
  const { api, esPid } = bench;
  const target = targetOf(bench, side, requests);
  const cpuBefore = side === 'api' ? await processCpuSeconds(api.pid) : 0;
  const esCpuBefore = esPid !== undefined ? await processCpuSeconds(esPid) : 0;
  const result = await runLoad(target, {
    connections: conns,
    durationSeconds: repeatSeconds ?? 0,
    ...(repeatSeconds ? {} : { amount: requests.length - (requests.length % conns) }),
  });
  const cpu = side === 'api' ? (await processCpuSeconds(api.pid)) - cpuBefore : undefined;
  const esCpu = esPid !== undefined ? (await processCpuSeconds(esPid)) - esCpuBefore : undefined;
  const row = figures(result, cpu, esCpu);
  log(
    `${side} ${conns} conn.: ${Math.round(row.requestsPerSecond)} req/s, p50 ${row.p50.toFixed(2)} ms, ` +
      `${row.ok} ok, ${row.errors} errors${row.apiCpuMs !== undefined ? `, API CPU ${row.apiCpuMs.toFixed(2)} ms/req` : ''}` +
      `${row.esCpuMs !== undefined ? `, Elasticsearch CPU ${row.esCpuMs.toFixed(2)} ms/req` : ''} (load ${row.load})`,
  );
  if (row.errors > row.requests * 0.01) {
    const refused = result.statuses['503'] ?? 0;
    throw new Error(
      `${side}: ${row.errors} failed requests` +
        (refused > 0
          ? ` (${refused} refused, 503: the API's admission control refused a closed loop, a defect to report)`
          : ''),
    );
  }
  return row;
}

/** Odd rounds API then raw, even rounds raw then API, each round on its own request set. */
async function alternating(
  bench: ScaleBench,
  sets: MixRequest[][],
  conns: number,
  before?: () => Promise<unknown>,
): Promise<RunFigures[]> {
  const rows: RunFigures[] = [];
  for (const [round, set] of sets.entries()) {
    for (const side of round % 2 === 0 ? (['api', 'raw'] as const) : (['raw', 'api'] as const)) {
      if (before && side === 'api') await before();
      rows.push(await measureRun(bench, side, set, conns));
    }
  }
  return rows;
}

/** The rows each section measured (none for a section not run). */
interface SectionRows {
  a16: RunFigures[];
  a1: RunFigures[];
  b: RunFigures[];
  c16: RunFigures[];
  cRepeat: RunFigures[];
}

/** (a) The no-repeat mix at the run's connections and at 1. */
async function noRepeatSections(
  bench: ScaleBench,
  sets: RequestSets,
): Promise<Pick<SectionRows, 'a16' | 'a1'>> {
  const { options, es, alias } = bench;
  let a16: RunFigures[] = [];
  let a1: RunFigures[] = [];
  if (!runsSection(options, 'a16') && !runsSection(options, 'a1')) return { a16, a1 };
  // No cache may help the no-repeat mix: Elasticsearch's request cache would answer the side that goes second
  // for the mix's size-0 statistics requests (the costliest tenth of it), so it is off on the index here too.
  await setRequestCache(es, alias, false);
  try {
    if (runsSection(options, 'a16')) {
      log(`(a) no-repeat mix, ${options.connections} connections, request cache off…`);
      a16 = await alternating(bench, sets.noRepeat16, options.connections);
    }
    if (runsSection(options, 'a1')) {
      log('(a) no-repeat mix, 1 connection, request cache off…');
      a1 = await alternating(bench, sets.noRepeat1, 1);
    }
  } finally {
    await setRequestCache(es, alias, true);
  }
  return { a16, a1 };
}

/** (b) The Zipf mix (--trickle: with changes in place meanwhile). */
async function zipfSection(bench: ScaleBench, sets: RequestSets): Promise<RunFigures[]> {
  const { options } = bench;
  if (!runsSection(options, 'zipf')) return [];
  log('(b) Zipf mix (each API round on a fresh process: the cache starts empty)…');
  // A fresh process per API round (its cache starts empty), warmed with the warm-up set (none of which is in
  // the Zipf pool) like the first one.
  const trickle = options.trickle
    ? await startTrickle(bench.client, bench.alias, options.trickle * 1000)
    : undefined;
  try {
    return await alternating(bench, sets.zipf, options.connections, async () => {
      await startTheApi(bench);
      await warmUp(bench, 'api', sets.warmup);
    });
  } finally {
    const changes = await trickle?.stop();
    if (trickle) log(`trickle: ${changes} changes in place, one every ${options.trickle} s`);
  }
}

/** (c) Distinct filtered statistics, every answer computed (the request cache off). */
async function filteredStatisticsSection(bench: ScaleBench, sets: RequestSets): Promise<RunFigures[]> {
  const { options, es, alias } = bench;
  if (!runsSection(options, 'stats')) return [];
  log(`(c) distinct filtered statistics, ${options.connections} connections, request cache off…`);
  await setRequestCache(es, alias, false);
  try {
    return await alternating(bench, sets.stats16, options.connections);
  } finally {
    await setRequestCache(es, alias, true);
  }
}

/** (c) The unfiltered statistics asked again and again (the request cache on), at 1 connection and the run's. */
async function repeatedStatisticsSection(bench: ScaleBench, sets: RequestSets): Promise<RunFigures[]> {
  const { options } = bench;
  const rows: RunFigures[] = [];
  if (!runsSection(options, 'repeat')) return rows;
  log('(c) the unfiltered statistics asked again and again (request cache on)…');
  const seconds = options.quick ? 1 : 8;
  for (const conns of [1, options.connections]) {
    for (const side of ['api', 'raw', 'raw', 'api'] as const)
      rows.push(await measureRun(bench, side, sets.unfiltered, conns, seconds / 2));
  }
  return rows;
}

/** --profile: a fresh API under node --cpu-prof, warmed, then a fresh no-repeat set; its hottest functions. */
async function profileTheApi(bench: ScaleBench, sets: RequestSets): Promise<ProfileSummary | undefined> {
  const { connections } = bench.options;
  log(`profile: the API under node --cpu-prof, a fresh no-repeat set, ${connections} connections, gzip…`);
  const profileDir = await mkdtemp(join(bench.fixture.workDir, 'api-profile-'));
  await startTheApi(bench, profileDir);
  await runLoad(apiTarget(bench.api.url, sets.warmup, GZIP), {
    connections,
    durationSeconds: 0,
    amount: 592,
  });
  const since = profileClockMicros();
  await measureRun(bench, 'api', sets.profileSet, connections);
  await bench.api.stop();
  const file = await newestProfile(profileDir);
  return file ? summariseProfileFile(file, 25, since) : undefined;
}

/** The mean of one figure over one side's rows (at `conns` connections when given). */
function mean(rows: RunFigures[], side: 'api' | 'raw', key: keyof RunFigures, conns?: number): number {
  const values = rows
    .filter((row) => row.side === side && (conns === undefined || row.connections === conns))
    .map((row) => Number(row[key]));
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

/** API over raw, of one figure's means. */
const ratio = (rows: RunFigures[], key: keyof RunFigures, conns?: number) =>
  mean(rows, 'api', key, conns) / mean(rows, 'raw', key, conns);

function summarise({ a16, a1, b, c16, cRepeat }: SectionRows, connections: number) {
  return {
    noRepeatRatio: ratio(a16, 'requestsPerSecond'),
    noRepeatP50OverheadMs1: mean(a1, 'api', 'p50') - mean(a1, 'raw', 'p50'),
    noRepeatApiCpuMs: mean(a16, 'api', 'apiCpuMs'),
    noRepeatEsCpuMs: { api: mean(a16, 'api', 'esCpuMs'), raw: mean(a16, 'raw', 'esCpuMs') },
    zipfRatio: ratio(b, 'requestsPerSecond'),
    filteredStatsP50Ratio: ratio(c16, 'p50'),
    filteredStatsP50: { api: mean(c16, 'api', 'p50'), raw: mean(c16, 'raw', 'p50') },
    repeatedStatsP50: {
      api1: mean(cRepeat, 'api', 'p50', 1),
      raw1: mean(cRepeat, 'raw', 'p50', 1),
      api16: mean(cRepeat, 'api', 'p50', connections),
      raw16: mean(cRepeat, 'raw', 'p50', connections),
    },
  };
}

type ScaleSummary = ReturnType<typeof summarise>;

function targetsOf(summary: ScaleSummary) {
  return [
    ['no-repeat API/raw req/s ≥ 0.85', summary.noRepeatRatio >= 0.85],
    ['no-repeat p50 overhead at 1 connection ≤ 1 ms', summary.noRepeatP50OverheadMs1 <= 1],
    ['Zipf API/raw req/s ≥ 1.5', summary.zipfRatio >= 1.5],
    ['distinct filtered statistics API p50 ≤ 1.2× raw', summary.filteredStatsP50Ratio <= 1.2],
    [
      'repeated unfiltered statistics API p50 < raw (1 connection)',
      summary.repeatedStatsP50.api1 < summary.repeatedStatsP50.raw1,
    ],
  ] as const;
}

type ScaleTargets = ReturnType<typeof targetsOf>;

/** What a run found: the JSON of the results file, and its Markdown. */
interface ScaleReport {
  result: ReturnType<typeof resultOf>;
  markdown: string;
}

async function reportOf(
  bench: ScaleBench,
  sets: RequestSets,
  measured: SectionRows,
  summary: ScaleSummary,
): Promise<ScaleReport> {
  const targets = targetsOf(summary);
  const node = await localNodeInfo(bench.es).catch(() => undefined);
  const result = resultOf(bench, measured, summary, targets, node?.version);
  return { result, markdown: markdownOf(bench, sets, measured, summary, targets, result) };
}

function resultOf(
  { options, corpus, rawHeaders, split }: ScaleBench,
  measured: SectionRows,
  summary: ScaleSummary,
  targets: ScaleTargets,
  elasticsearch: string | undefined,
) {
  return {
    date: new Date().toISOString(),
    records: options.count,
    live: corpus.live,
    machine: machineInfo(),
    elasticsearch,
    cacheMb: Number(options.cacheMb),
    rawAcceptEncoding: rawHeaders ? 'gzip' : 'none',
    rawTextQuery: options.rawQ,
    cpuSplit: split?.settings ?? null,
    sections: SECTIONS.filter((section) => runsSection(options, section)),
    summary,
    targets: Object.fromEntries(targets),
    runs: {
      noRepeat16: measured.a16,
      noRepeat1: measured.a1,
      zipf: measured.b,
      filteredStatistics16: measured.c16,
      repeatedStatistics: measured.cRepeat,
    },
  };
}

/** The results file's Markdown: how it was run, the targets, then a table per section run. */
function markdownOf(
  bench: ScaleBench,
  sets: RequestSets,
  measured: SectionRows,
  summary: ScaleSummary,
  targets: ScaleTargets,
  result: ReturnType<typeof resultOf>,
): string {
  const { options, corpus, split } = bench;
  return [
    `# Public-traffic benchmark (issue 21): ${options.count.toLocaleString('en')} records (${corpus.live.toLocaleString('en')} live)`,
    '',
    methodLine(bench, sets, result),
    ...(split ? ['', `**${cpuSplitLine(split.settings)}**`] : []),
    '',
    '| target | figure | met |',
    '|---|---:|---|',
    ...targetLines(bench, measured, summary, targets),
    '',
    ...sectionTables(bench, sets, measured),
  ].join('\n');
}

/** How the run was made: when, on what, with which client on each side. */
function methodLine(
  { options, rawHeaders, split }: ScaleBench,
  sets: RequestSets,
  result: ReturnType<typeof resultOf>,
): string {
  return (
    `${result.date}; ${machineInfo().cores} cores (${split ? 'split: see below' : 'shared by Elasticsearch, the API and the load generator; other work: see the load column'}), Node ${process.version}, Elasticsearch ${result.elasticsearch ?? '?'}; API compiled, RESPONSE_CACHE_MB=${options.cacheMb}. Every request carries \`Accept-Encoding: gzip\` on the API side, ${rawHeaders ? 'and on the raw side too (the same client on both sides)' : 'none on the raw side (--raw-identity)'}. Each side warmed with ${sets.warmup.length} requests of its own first; ${sets.rounds} rounds per section, alternating which side goes first, each on a fresh request set.` +
    (options.rawQ === 'plain'
      ? " **Raw side's text searches: a plain fuzzy multi_match** (AUTO, prefix_length 1, operator and, over the API index's four text fields, q folded as they are; `--raw-q plain`) in place of the API's text query; the rest of each body as the API sends it."
      : '')
  );
}

/** The targets' rows, each shown when its section ran. */
function targetLines(
  { options: { connections }, esPid }: ScaleBench,
  { a16, a1, b, c16, cRepeat }: SectionRows,
  summary: ScaleSummary,
  targets: ScaleTargets,
): string[] {
  return (
    [
      [
        a16,
        `| no-repeat mix, ${connections} conn.: API/raw req/s ≥ 0.85× | ${summary.noRepeatRatio.toFixed(2)}× | ${targets[0][1] ? 'yes' : 'no'} |`,
      ],
      [
        a1,
        `| no-repeat mix, 1 conn.: p50 overhead ≤ 1 ms | ${summary.noRepeatP50OverheadMs1.toFixed(2)} ms | ${targets[1][1] ? 'yes' : 'no'} |`,
      ],
      [
        b,
        `| Zipf mix, ${connections} conn.: API/raw req/s ≥ 1.5× | ${summary.zipfRatio.toFixed(2)}× | ${targets[2][1] ? 'yes' : 'no'} |`,
      ],
      [
        c16,
        `| distinct filtered statistics, ${connections} conn.: API p50 ≤ 1.2× raw | ${summary.filteredStatsP50.api.toFixed(1)} / ${summary.filteredStatsP50.raw.toFixed(1)} ms = ${summary.filteredStatsP50Ratio.toFixed(2)}× | ${targets[3][1] ? 'yes' : 'no'} |`,
      ],
      [
        cRepeat,
        `| unfiltered statistics repeated, 1 conn.: API p50 < raw | ${summary.repeatedStatsP50.api1.toFixed(2)} / ${summary.repeatedStatsP50.raw1.toFixed(2)} ms | ${targets[4][1] ? 'yes' : 'no'} |`,
      ],
      [
        cRepeat,
        `| (unfiltered statistics repeated, ${connections} conn.) | ${summary.repeatedStatsP50.api16.toFixed(2)} / ${summary.repeatedStatsP50.raw16.toFixed(2)} ms | |`,
      ],
      [
        a16,
        `| (API CPU per request, no-repeat mix, ${connections} conn.) | ${summary.noRepeatApiCpuMs.toFixed(2)} ms | |`,
      ],
      [
        esPid === undefined ? [] : a16,
        `| (Elasticsearch CPU per request, no-repeat mix, ${connections} conn.: API side ÷ raw side; the API's CPU ÷ its Elasticsearch's) | ` +
          `${summary.noRepeatEsCpuMs.api.toFixed(2)} / ${summary.noRepeatEsCpuMs.raw.toFixed(2)} ms = ${(summary.noRepeatEsCpuMs.api / summary.noRepeatEsCpuMs.raw).toFixed(2)}×; ` +
          `${(summary.noRepeatApiCpuMs / summary.noRepeatEsCpuMs.api).toFixed(2)} | |`,
      ],
    ] as [RunFigures[], string][]
  )
    .filter(([rows]) => rows.length > 0)
    .map(([, line]) => line);
}

/** A table of each section run, its rows one run each. */
function sectionTables(
  { options: { connections, trickle } }: ScaleBench,
  sets: RequestSets,
  { a16, a1, b, c16, cRepeat }: SectionRows,
): string[] {
  return (
    [
      [
        `(a) no-repeat mix, ${connections} connections (each request once per side, fresh set per round)`,
        a16,
      ],
      ['(a) no-repeat mix, 1 connection', a1],
      [
        `(b) Zipf s = 1.0 over ${sets.zipfPool.length} distinct requests, ${sets.zipfLength} per run, same sequence both sides` +
          (trickle ? `, one change in place every ${trickle} s` : ''),
        b,
      ],
      [`(c) distinct filtered statistics, ${connections} connections, Elasticsearch request cache off`, c16],
      [
        `(c) the unfiltered statistics repeated (request cache on), 1 and ${connections} connections`,
        cRepeat,
      ],
    ] as [string, RunFigures[]][]
  )
    .filter(([, rows]) => rows.length > 0)
    .map(([title, rows]) => runTable(title, rows));
}

function runTable(title: string, rows: RunFigures[]): string {
  return [
    `### ${title}`,
    '',
    '| side | conn. | requests | req/s | p50 ms | p90 ms | p99 ms | API CPU ms/req | Elasticsearch CPU ms/req | load (1 min) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.side} | ${row.connections} | ${row.ok} | ${row.requestsPerSecond.toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p90.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.apiCpuMs?.toFixed(2) ?? ''} | ${row.esCpuMs?.toFixed(2) ?? ''} | ${row.load} |`,
    ),
    '',
  ].join('\n');
}

/** bench/results/<date>-scale[-cpu-split][-Nm][-sections][-trickleNs][-plain-q].md and .json. */
async function writeResults(
  { options, split }: ScaleBench,
  { result, markdown }: ScaleReport,
): Promise<void> {
  const base = options.out ?? join(REPO_ROOT, 'bench/results', `${result.date.slice(0, 10)}-scale`);
  const suffix = [
    split ? '-cpu-split' : '',
    options.count >= 1_000_000 ? `-${options.count / 1_000_000}m` : '',
    options.only ? `-${options.only.join('-')}` : '',
    options.trickle ? `-trickle${options.trickle}s` : '',
    options.rawQ === 'plain' ? '-plain-q' : '',
  ].join('');
  await writeFile(`${base}${suffix}.md`, `${markdown}\n`);
  await writeFile(`${base}${suffix}.json`, `${JSON.stringify(result, null, 2)}\n`);
  log(`wrote ${base}${suffix}.md and .json`);
}
