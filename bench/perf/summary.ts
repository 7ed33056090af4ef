// Figures of one record count, from the raw load runs: medians over the rounds for throughput, pooled response
// times for percentiles, and the targets of issue 7 judged on them (goals to report, never assertions).
import { FACET_NAMES } from '../../src/params/facets.js';
import type { IndexingTiming, ReindexTiming } from './indexing.js';
import { median, quantile, type LoadResult } from './load.js';
import type { RequestKind } from './requestMix.js';
import type { ExportFigures } from './exportRun.js';
import type { ProfileSummary } from './profile.js';

export interface SideFigures {
  requestsPerSecond: number;
  /** Each round's req/s. */
  rounds: number[];
  p50: number;
  p99: number;
  ok: number;
  errors: number;
  p50ByKind: Partial<Record<RequestKind, number>>;
}

export interface CpuFigures {
  /** The API process (0 on the raw side: it idles). */
  apiMs: number;
  /** The Elasticsearch JVM, when it runs on this machine (it may serve others too). */
  esMs: number | undefined;
  /** This process: autocannon. */
  loadGeneratorMs: number;
  /** API + Elasticsearch + load generator CPU seconds per second of load: how many cores they kept busy. */
  coresBusy: number;
  /** --cpu-split only: CPU 0 (Elasticsearch) and CPU 1 (API + load generator) busy, out of 1 each. */
  esCoreBusy?: number;
  benchCoreBusy?: number;
}

export interface CountFigures {
  count: number;
  published: number;
  live: number;
  load: { api: SideFigures; raw: SideFigures; ratio: number; roundRatios: number[] };
  unloaded: { api: SideFigures; raw: SideFigures };
  statisticsUncached: { api: SideFigures; raw: SideFigures };
  /** One connection: the mix's list requests without and with every facet, and a suggest mix. */
  searchAdditions: {
    plain: { api: SideFigures; raw: SideFigures };
    faceted: { api: SideFigures; raw: SideFigures };
    suggest: { api: SideFigures; raw: SideFigures };
    /** The same lists with `facets=technology` and with `facets=flags` (absent in results from before issue 74). */
    technologyFacet?: { api: SideFigures; raw: SideFigures };
    flagsFacet?: { api: SideFigures; raw: SideFigures };
  };
  /**
   * The release package (GET /api/v1/ppas/ocds) of the mix's lists beside the same lists as list pages: the API's
   * CPU per answered request of each, side by side in one run (absent in results from before it was measured).
   */
  releasePackages?: {
    requests: number;
    listApiMs: number;
    packageApiMs: number;
    ratio: number;
    listBytes: number;
    packageBytes: number;
    perByteRatio: number;
  };
  /** Every live record exported (NDJSON, CSV) against a raw search_after walk; the API's RSS meanwhile. */
  exported: ExportFigures;
  indexing: {
    indexer: ReindexTiming;
    /** The indexer's documents into its mapping (plain _bulk): the mean of the loads before and after the indexer. */
    raw: IndexingTiming;
    /** Those two loads. */
    ownRuns?: IndexingTiming[];
    /** Wall seconds of the untimed own loads that warmed Elasticsearch's JIT first. */
    warmup?: number[];
    /** The records into a plain multi-field (dynamic) mapping; absent in results from before it was measured. */
    plain?: IndexingTiming;
    /** The own load without each field family (bench --mapping-cost). */
    families?: FamilyCost[];
    ratio: number;
  };
  apiPeakRssMb: number;
  /** CPU per answered request during the load rounds, by process, for each side. */
  cpu: { api: CpuFigures; raw: CpuFigures };
  /**
   * Each kind of request alone under the same load, API and raw in turn: the CPU per answered request of
   * Elasticsearch (on each side) and of the API process, and the unloaded p50 overhead of that kind.
   */
  byKind?: Partial<Record<RequestKind, KindFigures>>;
  verify: { checked: number; mismatches: number; empty: number };
  apiProfile?: ProfileSummary;
  indexerProfile?: ProfileSummary;
}

export interface FamilyCost {
  family: string;
  without: IndexingTiming;
  /** The own load run right next to it (absent in results from before pairs). */
  own?: IndexingTiming;
}

export interface KindFigures {
  /** Elasticsearch's CPU per answered request: the API side, and the raw side at full speed. */
  esMsApi: number | undefined;
  esMsRaw: number | undefined;
  /** The raw side paced at the API side's req/s: the same bodies, and (lists with q) the reference bodies. */
  esMsRawAtApiRate?: number | undefined;
  esMsReferenceAtApiRate?: number | undefined;
  apiMs: number;
  /** API req/s over raw req/s with only this kind. */
  ratio: number;
  /** 1 connection: API p50 − raw p50 (ms). */
  unloadedOverhead: number;
}

function merged(sortedLists: number[][]): number[] {
  return sortedLists.flat().sort((a, b) => a - b);
}

export function sideFigures(results: LoadResult[]): SideFigures {
  const latencies = merged(results.map((result) => result.latencies));
  const kinds = new Set(results.flatMap((result) => Object.keys(result.latenciesByKind) as RequestKind[]));
  const p50ByKind: Partial<Record<RequestKind, number>> = {};
  for (const kind of kinds) {
    p50ByKind[kind] = quantile(merged(results.map((result) => result.latenciesByKind[kind] ?? [])), 0.5);
  }
  const rounds = results.map((result) => result.requestsPerSecond);
  return {
    requestsPerSecond: median(rounds),
    rounds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    ok: results.reduce((sum, result) => sum + result.ok, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    p50ByKind,
  };
}

export interface TargetCheck {
  name: string;
  goal: string;
  actual: string;
  met: boolean;
}

/** Issue 7's targets. The indexer and statistics targets are stated at 100k records; shown at every count. */
export function targetChecks(figures: CountFigures): TargetCheck[] {
  const overhead = figures.load.api.p50 - figures.load.raw.p50;
  const unloadedOverhead = figures.unloaded.api.p50 - figures.unloaded.raw.p50;
  const statisticsP50 = figures.statisticsUncached.api.p50;
  return [
    {
      name: 'API throughput vs raw Elasticsearch (same mix and connections)',
      goal: '≥ 0.85×',
      actual: `${figures.load.ratio.toFixed(2)}×`,
      met: figures.load.ratio >= 0.85,
    },
    {
      name: 'API p50 overhead under load (API p50 − raw p50)',
      goal: '≤ 1 ms',
      actual: `${overhead.toFixed(2)} ms`,
      met: overhead <= 1,
    },
    {
      name: 'API p50 overhead unloaded (1 connection)',
      goal: '≤ 1 ms',
      actual: `${unloadedOverhead.toFixed(2)} ms`,
      met: unloadedOverhead <= 1,
    },
    {
      name: "Indexer vs a plain _bulk of its own documents into its mapping (the pipeline's overhead), docs/s",
      goal: '≥ 0.9×',
      actual: `${figures.indexing.ratio.toFixed(2)}×`,
      met: figures.indexing.ratio >= 0.9,
    },
    ...(figures.indexing.plain
      ? [
          {
            name: 'Own documents and mapping ÷ the records in a plain dynamic mapping, load time',
            goal: '≤ 2×',
            actual: `${(figures.indexing.raw.seconds / figures.indexing.plain.seconds).toFixed(2)}×`,
            met: figures.indexing.raw.seconds <= 2 * figures.indexing.plain.seconds,
          },
        ]
      : []),
    {
      name: `List with every facet (${FACET_NAMES.length}) ÷ the same list without (API p50, 1 connection)`,
      goal: '≤ 1.3×',
      actual: `${facetCost(figures).toFixed(2)}×`,
      met: facetCost(figures) <= 1.3,
    },
    ...(figures.searchAdditions.flagsFacet && figures.searchAdditions.technologyFacet
      ? [
          {
            name: 'List with facets=flags ÷ the same list with facets=technology (API p50, 1 connection)',
            goal: '≤ 1.1×',
            actual: `${flagFacetCost(figures)!.toFixed(2)}× (raw ${(figures.searchAdditions.flagsFacet.raw.p50 / figures.searchAdditions.technologyFacet.raw.p50).toFixed(2)}×)`,
            met: flagFacetCost(figures)! <= 1.1,
          },
        ]
      : []),
    ...(figures.releasePackages
      ? [
          {
            name: 'Release package ÷ a list page of the same size (API CPU a request, side by side)',
            goal: '≤ 1.3×',
            actual: `${figures.releasePackages.ratio.toFixed(2)}× (${figures.releasePackages.packageApiMs.toFixed(2)} ÷ ${figures.releasePackages.listApiMs.toFixed(2)} ms)`,
            met: figures.releasePackages.ratio <= 1.3,
          },
          {
            // Issue 72: a package carries about 4.7 times a page's bytes; what it may cost is per byte served.
            name: 'Release package ÷ a list page of the same size (API CPU per byte served)',
            goal: '≤ 1×',
            actual: `${figures.releasePackages.perByteRatio.toFixed(2)}× (${(figures.releasePackages.packageBytes / 1024).toFixed(1)} ÷ ${(figures.releasePackages.listBytes / 1024).toFixed(1)} KiB an answer)`,
            met: figures.releasePackages.perByteRatio <= 1,
          },
        ]
      : []),
    {
      name: 'Suggest p50 (API, 1 connection)',
      goal: '≤ 10 ms',
      actual: `${figures.searchAdditions.suggest.api.p50.toFixed(1)} ms`,
      met: figures.searchAdditions.suggest.api.p50 <= 10,
    },
    {
      name: 'Export records/s ÷ raw search_after walk (NDJSON; CSV)',
      goal: '≥ 0.8×',
      actual: `${exportRatio(figures, 'ndjson').toFixed(2)}×; ${exportRatio(figures, 'csv').toFixed(2)}×`,
      met: exportRatio(figures, 'ndjson') >= 0.8 && exportRatio(figures, 'csv') >= 0.8,
    },
    {
      name: 'API resident memory while exporting',
      goal: '≤ 200 MB',
      actual: `${figures.exported.apiRssMb.toFixed(0)} MiB`,
      met: figures.exported.apiRssMb <= 200,
    },
    {
      name: 'Statistics p50 (API, 1 connection, request cache off)',
      goal: '≤ 20 ms',
      actual: `${statisticsP50.toFixed(1)} ms`,
      met: statisticsP50 <= 20,
    },
  ];
}

/** What every facet costs a list request: API p50 with them ÷ API p50 of the same requests without. */
export function facetCost(figures: CountFigures): number {
  return figures.searchAdditions.faceted.api.p50 / figures.searchAdditions.plain.api.p50;
}

/** What the flags facet costs against the technology facet: API p50 of the same lists with each. */
export function flagFacetCost(figures: CountFigures): number | undefined {
  const { flagsFacet, technologyFacet } = figures.searchAdditions;
  return flagsFacet && technologyFacet ? flagsFacet.api.p50 / technologyFacet.api.p50 : undefined;
}

export function exportRatio(figures: CountFigures, format: 'ndjson' | 'csv'): number {
  return figures.exported[format].recordsPerSecond / figures.exported.raw.recordsPerSecond;
}
