// The mix suite's load rounds: the API and raw Elasticsearch agree on the mix first; then the loaded rounds in
// alternating order, each kind of request alone (loaded, at the API's pace, unloaded), one connection (latency
// without queueing), statistics with the request cache off, and the facets' and suggestions' costs.
import type { PpaRecord } from '../../indexContract/record.js';
import type { CpuSplit } from '../perf/cpuSplit.js';
import { setRequestCache, type EsTarget } from '../perf/rawElasticsearch.js';
import { apiTarget, rawTarget, runLoad, type LoadResult, type LoadTarget } from '../perf/load.js';
import {
  buildSuggestMix,
  facetPairs,
  flagFacetPairs,
  releasePackagePairs,
  type MixRequest,
  type RequestKind,
} from '../perf/requestMix.js';
import { sideFigures, type KindFigures } from '../perf/summary.js';
import { verifyMix } from '../perf/verify.js';
import { runEvenlyPaced } from '../perf/pacedLoad.js';
import { referenceRequest } from '../perf/reference.js';
import { BreakageError, checkLoad, log, type CountSettings, type Sides } from './common.js';
import { addCpu, cpuPerRequest, cpuSnapshot, emptyCpu, type CpuTotals } from './cpu.js';

/** Step 3: the API and raw Elasticsearch give the same totals for the mix, before anything is timed. */
export async function verifyAgreement(
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
export async function measureLoadRounds(
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
export async function measureByKind(
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
  for (const kind of settings.kinds) {
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
export async function measureOneConnection(targets: Sides<LoadTarget>, seconds: number, what: string) {
  return (await measureOneConnectionTogether({ [what]: targets }, seconds))[what]!;
}

/**
 * Several request sets at 1 connection, their runs interleaved: each set still goes API, raw, raw, API, but the
 * sets take turns in every slot (in alternating order), so a figure taken as the difference of two sets (the
 * facets' cost: faceted minus plain lists) compares runs made side by side, not minutes apart.
 */
export async function measureOneConnectionTogether(
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
export async function measureStatisticsUncached(
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
 * requests without and with every facet (the facets' cost), and a mix of suggestions as one types.
 */
export async function measureSearchAdditions(
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
  log('lists without and with every facet, suggestions: 1 connection…');
  // Plain and faceted lists interleaved: the facets' cost is their difference.
  const lists = await measureOneConnectionTogether(
    { 'lists without facets': side(plain), 'lists with facets': side(faceted) },
    settings.probeSeconds,
  );
  const [plainRuns, facetedRuns] = [lists['lists without facets']!, lists['lists with facets']!];
  const suggestRuns = await measureOneConnection(side(suggest), settings.probeSeconds, 'suggest');
  log('lists with facets=flags beside facets=technology: 1 connection…');
  const pairs = flagFacetPairs(mix);
  const flagLists = await measureOneConnectionTogether(
    { 'facets=technology': side(pairs.technology), 'facets=flags': side(pairs.flags) },
    settings.probeSeconds,
  );
  const both = (runs: Sides<LoadResult[]>) => ({ api: sideFigures(runs.api), raw: sideFigures(runs.raw) });
  return {
    plain: both(plainRuns),
    faceted: both(facetedRuns),
    suggest: both(suggestRuns),
    technologyFacet: both(flagLists['facets=technology']!),
    flagsFacet: both(flagLists['facets=flags']!),
  };
}

/**
 * The release package (GET /api/v1/ppas/ocds) against list pages of the same size: the mix's lists as first
 * pages, each as a list and as a release package, at the run's connections, list, package, package, list, the
 * API's CPU read around every run: its CPU per answered request on each side, and their ratio (issue 68: ≤ 1.3×).
 */
export async function measureReleasePackages(
  apiUrl: string,
  mix: MixRequest[],
  settings: CountSettings,
  pids: { api: number; es: number | undefined },
  split: CpuSplit | undefined,
) {
  const { lists, packages } = releasePackagePairs(mix);
  const targets = { list: apiTarget(apiUrl, lists), package: apiTarget(apiUrl, packages) };
  const cpu = { list: emptyCpu(), package: emptyCpu() };
  const runs: Record<'list' | 'package', LoadResult[]> = { list: [], package: [] };
  const seconds = Math.max(2, Math.round(settings.durationSeconds / 2));
  log(`release packages beside lists of the same size: ${settings.connections} connections…`);
  for (const side of ['list', 'package', 'package', 'list'] as const) {
    const before = await cpuSnapshot(pids.api, pids.es);
    const result = await runLoad(targets[side], {
      connections: settings.connections,
      durationSeconds: seconds / 2,
    });
    addCpu(cpu[side], before, await cpuSnapshot(pids.api, pids.es), result.seconds);
    checkLoad(result, `release packages: ${side}`);
    runs[side].push(result);
  }
  const listApiMs = cpuPerRequest(cpu.list, runs.list, split).apiMs;
  const packageApiMs = cpuPerRequest(cpu.package, runs.package, split).apiMs;
  const listBytes = await meanBytes(apiUrl, lists);
  const packageBytes = await meanBytes(apiUrl, packages);
  return {
    requests: packages.length,
    listApiMs,
    packageApiMs,
    ratio: packageApiMs / Math.max(1e-6, listApiMs),
    listBytes,
    packageBytes,
    // Issue 72's budget: the API's CPU per byte served, a package's at most a list page's.
    perByteRatio: packageApiMs / packageBytes / (listApiMs / listBytes),
  };
}

/** The mean bytes of the answers to (up to 200 of) `requests`, as the load asked them (no Accept-Encoding). */
async function meanBytes(apiUrl: string, requests: MixRequest[]): Promise<number> {
  const sample = requests.slice(0, 200);
  let bytes = 0;
  for (const request of sample) {
    const response = await fetch(`${apiUrl}${request.apiPath}`, {
      headers: { 'Accept-Encoding': 'identity' },
    });
    bytes += (await response.arrayBuffer()).byteLength;
  }
  return bytes / Math.max(1, sample.length);
}

/** The median of the per-round API/raw ratios: one slow round on either side does not decide it. */
export function medianRatio(api: LoadResult[], raw: LoadResult[]): { ratio: number; roundRatios: number[] } {
  const roundRatios = api.map((result, index) => result.requestsPerSecond / raw[index]!.requestsPerSecond);
  const sorted = [...roundRatios].sort((a, b) => a - b);
  return { ratio: sorted[Math.floor((sorted.length - 1) / 2)]!, roundRatios };
}
