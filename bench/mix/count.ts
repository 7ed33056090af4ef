// One record count of the mix suite, from the records to the figures: generate, index (bench/mix/indexingStep.ts),
// verify and load (bench/mix/rounds.ts), the export in a fresh API process, and the optional profiles.
import { rm } from 'node:fs/promises';
import type { BenchFixture } from '../fixture.js';
import type { ApiBuild } from '../perf/apiProcess.js';
import { assertPinned, BENCH_CPU, type CpuSplit } from '../perf/cpuSplit.js';
import { timeReindex } from '../perf/indexing.js';
import { apiTarget, rawTarget, type LoadTarget } from '../perf/load.js';
import { buildMix, type MixRequest } from '../perf/requestMix.js';
import { measureExport } from '../perf/exportRun.js';
import { sideFigures, type CountFigures } from '../perf/summary.js';
import { log, WITHOUT_RESPONSE_CACHE, type CountSettings, type Sides } from './common.js';
import { cpuPerRequest } from './cpu.js';
import { measureIndexing } from './indexingStep.js';
import { profileRun } from './profiling.js';
import {
  measureByKind,
  measureLoadRounds,
  measureOneConnection,
  measureReleasePackages,
  measureSearchAdditions,
  measureStatisticsUncached,
  medianRatio,
  verifyAgreement,
} from './rounds.js';

/** One record count: generate, index (raw and indexer), verify, load rounds, probes, optional profiles. */
export async function benchmarkCount(
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
  const indexing = await measureIndexing(es, client, alias, sourcePath, workDir, settings);

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
  const releasePackages = await measureReleasePackages(
    api.url,
    mix,
    settings,
    { api: api.pid, es: esPid },
    split,
  );
  log(
    `release packages: API ${releasePackages.packageApiMs.toFixed(2)} ms a request, lists of the same size ` +
      `${releasePackages.listApiMs.toFixed(2)} ms: ${releasePackages.ratio.toFixed(2)}×; per byte served ` +
      `${releasePackages.perByteRatio.toFixed(2)}×`,
  );

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
    releasePackages,
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
