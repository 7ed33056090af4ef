// `npm run bench`: the performance benchmark (issue 7). For each record count it generates the records, times the
// real indexer against a plain `_bulk` of the same documents, then drives the same request mix with autocannon
// at fixed concurrency against the API (its own process) and against raw Elasticsearch `_search` with exactly
// the bodies the API sends, in interleaved A/B rounds. Prints the tables and writes bench/results/<date>.md.
//
//   npm run bench                                   # 100k records (about 2 minutes on 2 cores)
//   npm run bench -- --count 10000,100000           # growth: the same mix at each count, one results file
//   npm run bench -- --count 1000000                # 1M: manual (generating and indexing take a while)
//   npm run bench -- --quick                        # 2k records, seconds per side, no results file (npm test)
//   npm run bench -- --cpu-split                    # Elasticsearch on CPU 0, everything else on CPU 1
//
// The public-traffic scenarios of issue 21 (no-repeat and Zipf mixes, statistics) are in bench/scale.ts.
//
// Options: --seed, --connections, --rounds, --duration (s per round), --warmup (s), --probe (s at 1 connection),
// --mix-size, --api dist|tsx, --log-level, --profile (CPU profiles of the API and the indexer), --mapping-cost
// (the load without each field family of the mapping), --cpu-split
// (Elasticsearch's JVM pinned to CPU 0, the API, autocannon and the indexer to CPU 1), --out <file>,
// --no-write. ES_URL (and ES_API_KEY or ES_USERNAME/ES_PASSWORD) pick the cluster; everything the run creates
// is named bench-<time>-<random>… and deleted at the end, also on Ctrl-C.
import type { Client } from '@elastic/elasticsearch';
import { Session } from 'node:inspector/promises';
import { Command, InvalidArgumentError } from 'commander';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PpaRecord } from '../indexContract/record.js';
import { positiveInteger } from '../indexer/optionParsers.js';
import { withFixture, type BenchFixture } from './fixture.js';
import { newestProfile, REPO_ROOT, type ApiBuild, type ApiMode } from './perf/apiProcess.js';
import {
  applyCpuSplit,
  assertPinned,
  BENCH_CPU,
  cpuSplitProblem,
  localEsPid,
  type CpuSplit,
} from './perf/cpuSplit.js';
import {
  deleteIndicesWithPrefix,
  localNodeHttpPort,
  localNodeInfo,
  setRequestCache,
  type EsTarget,
} from './perf/elasticsearch.js';
import {
  FIELD_FAMILIES,
  OWN_MAPPING,
  PLAIN_MAPPING,
  timeRawBulk,
  timeReindex,
  withoutFamily,
  type BulkVariant,
  type EsLoadWork,
  type IndexingTiming,
} from './perf/indexing.js';
import { apiTarget, rawTarget, runLoad, type LoadResult, type LoadTarget } from './perf/load.js';
import { cpuSecondsIfLocal, machineInfo, processCpuSeconds } from './perf/machine.js';
import {
  buildMix,
  buildSuggestMix,
  facetPairs,
  REQUEST_KINDS,
  type MixRequest,
  type RequestKind,
} from './perf/mix.js';
import { measureExport } from './perf/exportRun.js';
import {
  profileClockMicros,
  summariseProfile,
  summariseProfileFile,
  type CpuProfile,
} from './perf/profile.js';
import {
  markdownReport,
  profileSections,
  resultTables,
  type RunContext,
  type RunSettings,
} from './perf/report.js';
import {
  sideFigures,
  targetChecks,
  type CountFigures,
  type CpuFigures,
  type FamilyCost,
  type KindFigures,
} from './perf/summary.js';
import { verifyMix } from './perf/verify.js';
import { runEvenlyPaced } from './perf/pacedLoad.js';
import { referenceRequest } from './perf/reference.js';

interface CliOptions {
  quick?: boolean;
  count?: number[];
  seed: number;
  connections: number;
  rounds?: number;
  duration?: number;
  warmup?: number;
  probe?: number;
  mixSize?: number;
  api?: ApiMode;
  logLevel: string;
  profile?: boolean;
  mappingCost?: boolean;
  cpuSplit?: boolean;
  out?: string;
  write: boolean;
  render?: string;
}

/**
 * The main run cycles through its 1,000 requests again and again, so the API's response cache would answer
 * nearly all of them: it measures the uncached path (bench/scale.ts measures the cache, on traffic that repeats
 * the way public traffic does, and on traffic that never repeats).
 */
const WITHOUT_RESPONSE_CACHE = { RESPONSE_CACHE_MB: '0' };

/** Beyond this share of failed requests a load run counts as broken (the API or the cluster is failing). */
const MAX_ERROR_SHARE = 0.01;

class BreakageError extends Error {}
/** --cpu-split cannot run on this machine: said as it is, without a stack. */
class CpuSplitRefused extends Error {}

const counts = (value: string): number[] => value.split(',').map((part) => positiveInteger(part.trim()));

const log = (message: string): void => {
  process.stderr.write(`bench: ${message}\n`);
};

async function withCpuProfile<T>(work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    return { result, profile: profile as unknown as CpuProfile };
  } finally {
    session.disconnect();
  }
}

function checkLoad(result: LoadResult, what: string): void {
  const total = result.ok + result.errors;
  if (result.ok === 0 || result.errors / Math.max(1, total) > MAX_ERROR_SHARE) {
    throw new BreakageError(
      `${what}: ${result.ok} answers of ${total} were 2xx (statuses ${JSON.stringify(result.statuses)})`,
    );
  }
}

interface CountSettings extends RunSettings {
  profile: boolean;
  /** Also load the own documents without each field family (bench/perf/indexing.ts FIELD_FAMILIES). */
  mappingCost: boolean;
}

interface CpuTotals {
  api: number;
  es: number | undefined;
  bench: number;
  seconds: number;
}

interface CpuSnapshot {
  api: number;
  es: number | undefined;
  bench: number;
}

const emptyCpu = (): CpuTotals => ({ api: 0, es: 0, bench: 0, seconds: 0 });

async function cpuSnapshot(apiPid: number, esPid: number | undefined): Promise<CpuSnapshot> {
  const usage = process.cpuUsage();
  return {
    api: await processCpuSeconds(apiPid),
    es: await cpuSecondsIfLocal(esPid),
    bench: (usage.user + usage.system) / 1e6,
  };
}

function addCpu(totals: CpuTotals, before: CpuSnapshot, after: CpuSnapshot, seconds: number): void {
  totals.api += after.api - before.api;
  totals.es =
    totals.es === undefined || after.es === undefined ? undefined : totals.es + after.es - (before.es ?? 0);
  totals.bench += after.bench - before.bench;
  totals.seconds += seconds;
}

function cpuPerRequest(totals: CpuTotals, results: readonly { ok: number }[], split?: CpuSplit): CpuFigures {
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

type Sides<T> = Record<'api' | 'raw', T>;

/** Step 2: raw _bulk, then the real indexer, over the same documents. */
async function measureIndexing(
  es: EsTarget,
  client: Client,
  alias: string,
  sourcePath: string,
  workDir: string,
  withFamilies: boolean,
) {
  // The plain loads first, then the indexer, so the index the API reads is the freshest thing on the disk.
  const bulkPath = join(workDir, `${alias}.bulk`);
  const rawIndex = `${alias}-rawbulk`;
  const load = async (variant: BulkVariant) => {
    log(`plain _bulk: ${variant.name}…`);
    const timing = await timeRawBulk(es, sourcePath, rawIndex, bulkPath, variant);
    await deleteIndicesWithPrefix(es, rawIndex);
    await rm(bulkPath, { force: true });
    log(
      `${variant.name}: ${timing.docs} docs in ${timing.seconds.toFixed(1)} s (${Math.round(timing.docsPerSecond)}/s)`,
    );
    return timing;
  };
  // A freshly started Elasticsearch indexes at about half speed until its JIT has compiled the indexing path
  // (docs/performance.md, "Method"). Timed then, a load measures the JVM's warm-up, not the pipeline. So the own
  // load runs untimed until two in a row agree within WARMED_WITHIN (at most WARMUP_LOADS).
  const warmup: number[] = [];
  while (warmup.length < WARMUP_LOADS) {
    warmup.push((await load(OWN_MAPPING)).seconds);
    const [before, last] = warmup.slice(-2);
    if (before !== undefined && last !== undefined && Math.abs(last - before) <= WARMED_WITHIN * before)
      break;
  }
  const plainBulk = await load(PLAIN_MAPPING);
  const families: FamilyCost[] = [];
  if (withFamilies) {
    // Each family against an own load run next to it, in alternating order: the machine drifts by more over
    // the minutes of these loads than a family costs.
    for (const [index, family] of FIELD_FAMILIES.entries()) {
      const own = index % 2 === 0 ? await load(OWN_MAPPING) : undefined;
      const without = await load(withoutFamily(family));
      families.push({ family: family.family, without, own: own ?? (await load(OWN_MAPPING)) });
    }
  }
  // Operators reindex an alias that already serves a generation (all but the very first run): the timed run
  // replaces one, so it pays the comparison with it and the change log's event, as theirs does.
  log('reindex: the generation it will replace (untimed)…');
  await timeReindex(client, alias, sourcePath);
  // The own load right before and right after the indexer: its ratio compares neighbouring runs.
  const ownBefore = await load(OWN_MAPPING);
  log('reindex (the real indexer)…');
  const indexer = await timeReindex(client, alias, sourcePath, es);
  log(
    `indexer: ${indexer.docs} docs in ${indexer.seconds.toFixed(1)} s (${Math.round(indexer.docsPerSecond)}/s)`,
  );
  const ownAfter = await load(OWN_MAPPING);
  return {
    indexer,
    rawBulk: meanTiming(ownBefore, ownAfter),
    ownRuns: [ownBefore, ownAfter],
    plainBulk,
    families,
    warmup,
  };
}

/** Untimed own loads before the measured ones, until two in a row agree within this share. */
const WARMUP_LOADS = 5;
const WARMED_WITHIN = 0.1;

/** Two runs of the same load as one: mean wall time, and Elasticsearch's work (when both have it) averaged. */
function meanTiming(a: IndexingTiming, b: IndexingTiming): IndexingTiming {
  const seconds = (a.seconds + b.seconds) / 2;
  const es =
    a.es && b.es
      ? (Object.fromEntries(
          Object.keys(a.es).map((key) => {
            const field = key as keyof EsLoadWork;
            return [field, (a.es![field] + b.es![field]) / 2];
          }),
        ) as unknown as EsLoadWork)
      : undefined;
  return { docs: a.docs, seconds, docsPerSecond: a.docs / seconds, ...(es ? { es } : {}) };
}

/** Step 3: the API and raw Elasticsearch give the same totals for the mix, before anything is timed. */
async function verifyAgreement(
  mix: MixRequest[],
  apiUrl: string,
  es: EsTarget,
  alias: string,
  quick: boolean,
) {
  const verify = await verifyMix(mix, apiUrl, es, alias, quick ? mix.length : 300);
  log(`verified ${verify.checked} requests: ${verify.mismatches.length} mismatches, ${verify.empty} empty`);
  if (verify.mismatches.length > 0) {
    for (const { request, problem } of verify.mismatches.slice(0, 5)) log(`  ${request.apiPath}: ${problem}`);
    throw new BreakageError('the API and raw Elasticsearch disagree on the mix');
  }
  return verify;
}

/** Step 4: the loaded rounds, API and raw alternating, with the CPU each side's rounds cost. */
async function measureLoadRounds(
  targets: Sides<LoadTarget>,
  settings: CountSettings,
  pids: { api: number; es: number | undefined },
) {
  const load = { connections: settings.connections };
  log(`warm-up ${settings.warmupSeconds} s per side…`);
  for (const side of ['api', 'raw'] as const) {
    await runLoad(targets[side], { ...load, durationSeconds: settings.warmupSeconds });
  }
  const rounds: Sides<LoadResult[]> = { api: [], raw: [] };
  const cpu: Sides<CpuTotals> = { api: emptyCpu(), raw: emptyCpu() };
  for (let round = 0; round < settings.rounds; round++) {
    // ABBA…: the order flips every round so a steady drift of the machine weighs on both sides alike.
    const order = round % 2 === 0 ? (['api', 'raw'] as const) : (['raw', 'api'] as const);
    for (const side of order) {
      const before = await cpuSnapshot(pids.api, pids.es);
      const result = await runLoad(targets[side], { ...load, durationSeconds: settings.durationSeconds });
      addCpu(cpu[side], before, await cpuSnapshot(pids.api, pids.es), result.seconds);
      checkLoad(result, `round ${round + 1} ${side}`);
      rounds[side].push(result);
      log(
        `round ${round + 1} ${side}: ${Math.round(result.requestsPerSecond)} req/s, ${result.ok} ok, ${result.errors} errors`,
      );
    }
  }
  return { rounds, cpu };
}

/**
 * Each kind of the mix alone: loaded (API, raw, raw, API at the run's connections) with the CPU of Elasticsearch
 * and of the API read around every run, then unloaded (1 connection): where each kind's cost goes, on
 * Elasticsearch's side and the API's.
 */
async function measureByKind(
  mix: MixRequest[],
  apiUrl: string,
  es: EsTarget,
  alias: string,
  settings: CountSettings,
  pids: { api: number; es: number | undefined },
  split: CpuSplit | undefined,
): Promise<Partial<Record<RequestKind, KindFigures>>> {
  const figures: Partial<Record<RequestKind, KindFigures>> = {};
  const seconds = Math.max(2, Math.round(settings.durationSeconds / 2));
  for (const kind of REQUEST_KINDS) {
    const requests = mix.filter((request) => request.kind === kind);
    if (requests.length === 0) continue;
    log(`${kind} alone: ${settings.connections} connections, then 1…`);
    const targets: Sides<LoadTarget> = {
      api: apiTarget(apiUrl, requests),
      raw: rawTarget(es, alias, requests),
    };
    const cpu: Sides<CpuTotals> = { api: emptyCpu(), raw: emptyCpu() };
    const runs: Sides<LoadResult[]> = { api: [], raw: [] };
    for (const side of ['api', 'raw', 'raw', 'api'] as const) {
      const before = await cpuSnapshot(pids.api, pids.es);
      const result = await runLoad(targets[side], {
        connections: settings.connections,
        durationSeconds: seconds / 2,
      });
      addCpu(cpu[side], before, await cpuSnapshot(pids.api, pids.es), result.seconds);
      checkLoad(result, `${kind} ${side}`);
      runs[side].push(result);
    }
    // Elasticsearch's CPU per request depends on how its requests arrive (the longer it idles between them, the
    // more its threads' wake-ups and spinning weigh on each), so the sides are also compared at the API's rate,
    // spaced as evenly as the API sends them (bench/perf/pacedLoad.ts): the same bodies, and the reference bodies
    // (bench/perf/reference.ts).
    const apiRate = sideFigures(runs.api).requestsPerSecond;
    const paced = async (target: LoadTarget, label: string) => {
      const totals = emptyCpu();
      const before = await cpuSnapshot(pids.api, pids.es);
      const result = await runEvenlyPaced(target, {
        connections: settings.connections,
        durationSeconds: seconds / 2,
        ratePerSecond: apiRate,
      });
      addCpu(totals, before, await cpuSnapshot(pids.api, pids.es), result.seconds);
      if (result.errors > 0)
        throw new BreakageError(`${kind} ${label} at the API's rate: ${result.errors} errors`);
      return cpuPerRequest(totals, [result], split).esMs;
    };
    const rawAtApiRate = await paced(targets.raw, 'raw');
    const references = requests.map(referenceRequest);
    const referenceDiffers = references.some((reference, index) => reference !== requests[index]);
    const referenceAtApiRate = referenceDiffers
      ? await paced(rawTarget(es, alias, references), 'reference')
      : undefined;
    const unloaded = await measureOneConnection(targets, Math.max(2, settings.probeSeconds / 2), kind);
    const api = cpuPerRequest(cpu.api, runs.api, split);
    const raw = cpuPerRequest(cpu.raw, runs.raw, split);
    figures[kind] = {
      esMsApi: api.esMs,
      esMsRaw: raw.esMs,
      esMsRawAtApiRate: rawAtApiRate,
      esMsReferenceAtApiRate: referenceAtApiRate,
      apiMs: api.apiMs,
      ratio: apiRate / Math.max(0.001, sideFigures(runs.raw).requestsPerSecond),
      unloadedOverhead: sideFigures(unloaded.api).p50 - sideFigures(unloaded.raw).p50,
    };
  }
  return figures;
}

/** Steps 5 and 6: one connection per side (latency without queueing), API, raw, raw, API. */
async function measureOneConnection(targets: Sides<LoadTarget>, seconds: number, what: string) {
  return (await measureOneConnectionTogether({ [what]: targets }, seconds))[what]!;
}

/**
 * Several request sets at 1 connection, their runs interleaved: each set still goes API, raw, raw, API, but the
 * sets take turns in every slot (in alternating order), so a figure taken as the difference of two sets (the
 * facets' cost: faceted minus plain lists) compares runs made side by side, not minutes apart.
 */
async function measureOneConnectionTogether(
  sets: Record<string, Sides<LoadTarget>>,
  seconds: number,
): Promise<Record<string, Sides<LoadResult[]>>> {
  const names = Object.keys(sets);
  const results = Object.fromEntries(names.map((name) => [name, { api: [], raw: [] }])) as Record<
    string,
    Sides<LoadResult[]>
  >;
  for (const [slot, side] of (['api', 'raw', 'raw', 'api'] as const).entries()) {
    for (const name of slot % 2 === 0 ? names : [...names].reverse()) {
      const result = await runLoad(sets[name]![side], { connections: 1, durationSeconds: seconds / 2 });
      checkLoad(result, `${name} ${side}`);
      results[name]![side].push(result);
    }
  }
  return results;
}

/** Statistics with Elasticsearch's request cache off, so each answer is really computed. */
async function measureStatisticsUncached(
  apiUrl: string,
  es: EsTarget,
  alias: string,
  mix: MixRequest[],
  seconds: number,
) {
  log('statistics with the request cache off: 1 connection…');
  const statisticsMix = mix.filter((request) => request.kind === 'statistics');
  await setRequestCache(es, alias, false);
  try {
    return await measureOneConnection(
      { api: apiTarget(apiUrl, statisticsMix), raw: rawTarget(es, alias, statisticsMix) },
      seconds,
      'statistics',
    );
  } finally {
    await setRequestCache(es, alias, true);
  }
}

/**
 * Issue 16's additions, one connection each, API and raw side by side with the same bodies: the mix's list
 * requests without and with all five facets (the facets' cost), and a mix of suggestions as one types.
 */
async function measureSearchAdditions(
  apiUrl: string,
  es: EsTarget,
  alias: string,
  mix: MixRequest[],
  records: PpaRecord[],
  settings: CountSettings,
) {
  const { plain, faceted } = facetPairs(mix);
  const verify = await verifyMix(faceted, apiUrl, es, alias, Math.min(faceted.length, 100));
  if (verify.mismatches.length > 0) {
    for (const mismatch of verify.mismatches.slice(0, 5))
      log(`mismatch: ${mismatch.request.apiPath}: ${mismatch.problem}`);
    throw new BreakageError('the API and raw Elasticsearch disagree on the faceted lists');
  }
  const suggest = buildSuggestMix(records, { seed: settings.seed, size: settings.mixSize });
  const side = (requests: MixRequest[]) => ({
    api: apiTarget(apiUrl, requests),
    raw: rawTarget(es, alias, requests),
  });
  log('lists without and with all five facets, suggestions: 1 connection…');
  // Plain and faceted lists interleaved: the facets' cost is their difference.
  const lists = await measureOneConnectionTogether(
    { 'lists without facets': side(plain), 'lists with facets': side(faceted) },
    settings.probeSeconds,
  );
  const [plainRuns, facetedRuns] = [lists['lists without facets']!, lists['lists with facets']!];
  const suggestRuns = await measureOneConnection(side(suggest), settings.probeSeconds, 'suggest');
  const both = (runs: Sides<LoadResult[]>) => ({ api: sideFigures(runs.api), raw: sideFigures(runs.raw) });
  return { plain: both(plainRuns), faceted: both(facetedRuns), suggest: both(suggestRuns) };
}

/** Optional step: CPU profiles of the API under the mix and of a second reindex. */
async function profileRun(
  figures: CountFigures,
  options: { fixture: BenchFixture; build: ApiBuild; alias: string; settings: CountSettings },
  mix: MixRequest[],
  reindexAgain: () => Promise<unknown>,
  split: CpuSplit | undefined,
): Promise<void> {
  const { fixture, build, alias, settings } = options;
  const load = { connections: settings.connections };
  const profileDir = await mkdtemp(join(fixture.workDir, 'api-profile-'));
  log(`profiling the API: one mix round (${settings.durationSeconds} s) under node --cpu-prof…`);
  const profiled = await fixture.startApi({
    build,
    env: WITHOUT_RESPONSE_CACHE,
    alias,
    logLevel: settings.logLevel,
    cpuProfileDir: profileDir,
    ...(split ? { cpu: BENCH_CPU } : {}),
  });
  let since = 0;
  try {
    const profiledTarget = apiTarget(profiled.url, mix);
    await runLoad(profiledTarget, { ...load, durationSeconds: settings.warmupSeconds });
    since = profileClockMicros(); // start-up and warm-up stay out of the summary
    await runLoad(profiledTarget, { ...load, durationSeconds: settings.durationSeconds });
  } finally {
    await profiled.stop();
  }
  const file = await newestProfile(profileDir);
  if (file) figures.apiProfile = await summariseProfileFile(file, 15, since);

  log('profiling the indexer: a second reindex under the inspector…');
  const { profile } = await withCpuProfile(reindexAgain);
  figures.indexerProfile = summariseProfile(profile);
  if (split) await split.check();
}

/** The median of the per-round API/raw ratios: one slow round on either side does not decide it. */
function medianRatio(api: LoadResult[], raw: LoadResult[]): { ratio: number; roundRatios: number[] } {
  const roundRatios = api.map((result, index) => result.requestsPerSecond / raw[index]!.requestsPerSecond);
  const sorted = [...roundRatios].sort((a, b) => a - b);
  return { ratio: sorted[Math.floor((sorted.length - 1) / 2)]!, roundRatios };
}

/** One record count: generate, index (raw and indexer), verify, load rounds, probes, optional profiles. */
async function benchmarkCount(
  fixture: BenchFixture,
  count: number,
  settings: CountSettings,
  esPid: number | undefined,
  build: ApiBuild,
  split: CpuSplit | undefined,
): Promise<CountFigures> {
  const { es, workDir } = fixture;
  const { alias, client, remove } = fixture.index();
  const sampleSize = Math.max(500, settings.mixSize);
  const corpus = await fixture.corpus({ count, seed: settings.seed, sampleSize }, `${alias}.ndjson`);
  const sourcePath = corpus.path;
  const indexing = await measureIndexing(es, client, alias, sourcePath, workDir, settings.mappingCost);

  const mix: MixRequest[] = buildMix(corpus.sample, { seed: settings.seed, size: settings.mixSize });
  const api = await fixture.startApi({
    build,
    env: WITHOUT_RESPONSE_CACHE,
    alias,
    logLevel: settings.logLevel,
    ...(split ? { cpu: BENCH_CPU } : {}),
  });
  log(`API (${build.mode}) on ${api.url}, pid ${api.pid}`);
  if (split) {
    await assertPinned(api.pid, BENCH_CPU, 'the API process');
    await split.check();
    log(
      `--cpu-split: the API (pid ${api.pid}) is on CPU ${BENCH_CPU}; Elasticsearch and this process as set`,
    );
  }

  const verify = await verifyAgreement(mix, api.url, es, alias, settings.quick);
  const targets: Sides<LoadTarget> = { api: apiTarget(api.url, mix), raw: rawTarget(es, alias, mix) };
  const { rounds, cpu } = await measureLoadRounds(targets, settings, { api: api.pid, es: esPid });
  log(`unloaded probe: 1 connection, ${settings.probeSeconds} s per side…`);
  const unloaded = await measureOneConnection(targets, settings.probeSeconds, 'unloaded');
  const byKind = await measureByKind(mix, api.url, es, alias, settings, { api: api.pid, es: esPid }, split);
  const statistics = await measureStatisticsUncached(api.url, es, alias, mix, settings.probeSeconds);
  const searchAdditions = await measureSearchAdditions(api.url, es, alias, mix, corpus.sample, settings);

  // Still pinned as at the start (nobody reset Elasticsearch's affinity, it was not restarted)?
  if (split) {
    await split.check();
    await assertPinned(api.pid, BENCH_CPU, 'the API process');
  }
  const apiPeakRssMb = await api.peakRssMb();
  await api.stop();

  // A fresh API process for the export, so its peak memory is the export's alone (V8 keeps what the load
  // rounds grew).
  log('export: every live record as NDJSON and as CSV (a fresh API process), and the raw search_after walk…');
  const exportApi = await fixture.startApi({
    build,
    alias,
    logLevel: settings.logLevel,
    env: WITHOUT_RESPONSE_CACHE,
  });
  let exported;
  try {
    exported = await measureExport(exportApi.url, exportApi.pid, es, alias);
    exported.apiRssMb = Math.max(exported.apiRssMb, await exportApi.peakRssMb());
  } finally {
    await exportApi.stop();
  }

  const figures: CountFigures = {
    count,
    published: corpus.published,
    live: corpus.live,
    load: {
      api: sideFigures(rounds.api),
      raw: sideFigures(rounds.raw),
      ...medianRatio(rounds.api, rounds.raw),
    },
    unloaded: { api: sideFigures(unloaded.api), raw: sideFigures(unloaded.raw) },
    statisticsUncached: { api: sideFigures(statistics.api), raw: sideFigures(statistics.raw) },
    searchAdditions,
    exported,
    indexing: {
      indexer: indexing.indexer,
      raw: indexing.rawBulk,
      ownRuns: indexing.ownRuns,
      warmup: indexing.warmup,
      plain: indexing.plainBulk,
      families: indexing.families,
      ratio: indexing.indexer.docsPerSecond / indexing.rawBulk.docsPerSecond,
    },
    apiPeakRssMb,
    cpu: { api: cpuPerRequest(cpu.api, rounds.api, split), raw: cpuPerRequest(cpu.raw, rounds.raw, split) },
    byKind,
    verify: { checked: verify.checked, mismatches: verify.mismatches.length, empty: verify.empty },
  };
  if (settings.profile) {
    const reindexAgain = () => timeReindex(client, alias, sourcePath);
    await profileRun(figures, { fixture, build, alias, settings }, mix, reindexAgain, split);
  }

  await rm(sourcePath, { force: true });
  await remove();
  return figures;
}

const main = (options: CliOptions) => withFixture('bench', (fixture) => benchmark(options, fixture));

async function benchmark(options: CliOptions, fixture: BenchFixture): Promise<void> {
  const started = performance.now();
  const quick = Boolean(options.quick);
  const settings: CountSettings = {
    quick,
    seed: options.seed,
    connections: options.connections,
    rounds: options.rounds ?? (quick ? 1 : 3),
    durationSeconds: options.duration ?? (quick ? 2 : 10),
    warmupSeconds: options.warmup ?? (quick ? 1 : 3),
    probeSeconds: options.probe ?? (quick ? 1 : 6),
    mixSize: options.mixSize ?? (quick ? 200 : 1000),
    apiMode: options.api ?? (quick ? 'tsx' : 'dist'),
    logLevel: options.logLevel,
    profile: Boolean(options.profile),
    mappingCost: Boolean(options.mappingCost),
  };
  const recordCounts = options.count ?? [quick ? 2000 : 100_000];
  const { es } = fixture;
  const node = await localNodeInfo(es);
  const machine = machineInfo();
  log(
    `Elasticsearch ${node.version} at ${es.url}; ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB; Node ${machine.node}`,
  );
  // Elasticsearch's CPU time is read from /proc when the node runs here (the pid it reports is a java process).
  const esPid = await localEsPid(node.pid);
  if (options.cpuSplit) {
    const problem = await cpuSplitProblem(esPid, node.pid, await localNodeHttpPort(es));
    if (problem) throw new CpuSplitRefused(`--cpu-split is not possible here: ${problem}.`);
  }

  const build = await fixture.build(settings.apiMode as ApiMode);

  let split: CpuSplit | undefined;
  if (options.cpuSplit) {
    // After the compile (it need not run on one core); before anything measured.
    split = await applyCpuSplit(esPid!, log, (changing) => {
      // The way back is set up before the first change: the normal end, signals and failures go through the
      // fixture's cleanup; a second signal or an uncaught error through process 'exit' (synchronous).
      fixture.defer(() => changing.restore());
      process.on('exit', () => changing.restoreSync());
    });
    settings.cpuSplit = split.settings;
  }

  const all: CountFigures[] = [];
  for (const count of recordCounts)
    all.push(await benchmarkCount(fixture, count, settings, esPid, build, split));
  // Measuring is over: Elasticsearch gets its cores back now, not after the rest of the cleanup.
  await split?.restore();

  const totalSeconds = (performance.now() - started) / 1000;
  console.log(`\n${[...resultTables(all, settings), ...profileSections(all)].join('\n')}`);
  for (const figures of all) {
    const missed = targetChecks(figures).filter((check) => !check.met);
    if (missed.length > 0 && !quick) {
      log(`${figures.count} records: targets missed: ${missed.map((check) => check.name).join('; ')}`);
    }
  }
  log(`done in ${totalSeconds.toFixed(1)} s`);

  // --quick writes a results file only where --out says (npm test must not leave one behind).
  if (!options.write || (quick && !options.out)) return;
  const date = new Date().toISOString().slice(0, 10);
  const context: RunContext = {
    date,
    machine: machineInfo(),
    esVersion: node.version,
    esHeap: node.heap,
    esUrl: es.url,
    settings,
    totalSeconds,
  };
  // A core-split run never overwrites (or reads as) the day's shared-core results.
  const out =
    options.out ?? join(REPO_ROOT, 'bench/results', `${date}${settings.cpuSplit ? '-cpu-split' : ''}.md`);
  await mkdir(join(out, '..'), { recursive: true });
  // The figures as JSON beside the Markdown: `--render` rebuilds the file (after a change to the report).
  const saved: SavedRun = { context, figures: all };
  await writeFile(out.replace(/(\.md)?$/, '.json'), `${JSON.stringify(saved, null, 1)}\n`);
  await writeReport(out, saved);
}

interface SavedRun {
  context: RunContext;
  figures: CountFigures[];
}

async function writeReport(out: string, saved: SavedRun): Promise<void> {
  await writeFile(out, markdownReport(saved.figures, saved.context));
  log(`wrote ${out}`);
}

/** `--render <file.json>`: the Markdown again from a saved run. */
async function render(jsonPath: string): Promise<void> {
  const saved = JSON.parse(await readFile(jsonPath, 'utf8')) as SavedRun;
  await writeReport(jsonPath.replace(/\.json$/, '.md'), saved);
}

const program = new Command()
  .name('bench')
  .description('Load and indexing benchmark: the API against raw Elasticsearch on the same request mix')
  .option('--quick', 'smoke run: 2k records, 1 short round per side, no results file (npm test runs it)')
  .option('--count <n[,n…]>', 'record counts to benchmark, comma-separated (default 100000)', counts)
  .option('--seed <n>', 'generator and mix seed', positiveInteger, 20261122)
  .option('--connections <n>', 'concurrent connections of the load rounds', positiveInteger, 16)
  .option('--rounds <n>', 'A/B rounds per side (default 3; quick 1)', positiveInteger)
  .option('--duration <s>', 'seconds per round and side (default 10; quick 2)', positiveInteger)
  .option('--warmup <s>', 'warm-up seconds per side (default 3; quick 1)', positiveInteger)
  .option('--probe <s>', 'seconds at 1 connection per side (default 6; quick 1)', positiveInteger)
  .option('--mix-size <n>', 'distinct requests in the mix (default 1000; quick 200)', positiveInteger)
  .option('--api <mode>', 'dist: compiled (default); tsx: from the sources (quick)', (value: string) => {
    if (value !== 'dist' && value !== 'tsx') throw new InvalidArgumentError('dist or tsx');
    return value;
  })
  .option('--log-level <level>', "the API's LOG_LEVEL", 'info')
  .option(
    '--mapping-cost',
    "also time the plain _bulk load of the indexer's documents without each field family (8 more loads)",
  )
  .option(
    '--profile',
    'also record CPU profiles of the API (one extra round) and the indexer (one extra reindex)',
  )
  .option(
    '--cpu-split',
    "production shape on one machine: Elasticsearch's JVM pinned to CPU 0, the API, the load generator and " +
      'the indexer to CPU 1, for both sides (needs a local Elasticsearch, taskset and 2 CPUs)',
  )
  .option(
    '--out <file>',
    'results file (default bench/results/<YYYY-MM-DD>.md; with --cpu-split <YYYY-MM-DD>-cpu-split.md)',
  )
  .option('--no-write', 'print the tables only')
  .option('--render <json>', 'rewrite the results Markdown from its saved .json (no benchmark)')
  .action((options: CliOptions) => (options.render ? render(options.render) : main(options)));

try {
  await program.parseAsync();
} catch (error) {
  log(
    error instanceof BreakageError
      ? `BROKEN: ${error.message}`
      : error instanceof CpuSplitRefused
        ? error.message
        : `failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exitCode = 1;
}
