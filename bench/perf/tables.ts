// The benchmark's tables: the same Markdown is printed and written to bench/results/<date>.md.
import { cpuSplitLine, type CpuSplitSettings } from './cpuSplit.js';
import type { MachineInfo } from './machine.js';
import type { IndexingTiming, ReindexTiming } from './indexing.js';
import { REQUEST_KINDS, MIX_WEIGHTS } from './requestMix.js';
import { profileLines } from './profile.js';
import { targetChecks, type CountFigures, type CpuFigures } from './summary.js';
import { EXPORT_BATCH_SIZE } from '../../src/queries/exportSearch.js';
import { FACET_NAMES } from '../../src/params/facets.js';

export interface RunSettings {
  seed: number;
  connections: number;
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  probeSeconds: number;
  mixSize: number;
  apiMode: string;
  logLevel: string;
  quick: boolean;
  /** Set only by --cpu-split runs (absent from shared-core runs and their JSON). */
  cpuSplit?: CpuSplitSettings;
}

export interface RunContext {
  date: string;
  machine: MachineInfo;
  esVersion: string;
  esHeap: string;
  esUrl: string;
  settings: RunSettings;
  totalSeconds: number;
}

const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : '–');
const ms2 = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : '–');
const int = (value: number): string =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–';
const ratio = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');
const records = (count: number): string =>
  count >= 1_000_000 && count % 1_000_000 === 0
    ? `${count / 1_000_000}M`
    : count >= 1000 && count % 1000 === 0
      ? `${count / 1000}k`
      : String(count);

function table(header: string[], align: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `|${align.join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ];
}

export function resultTables(all: CountFigures[], settings: RunSettings): string[] {
  const split = settings.cpuSplit;
  const largest = all[all.length - 1];
  return [
    ...(split ? [`**${cpuSplitLine(split)}**`, ''] : []),
    ...loadSection(all, settings),
    ...unloadedSection(all, settings),
    ...facetsAndSuggestionsSection(all),
    ...exportSection(all),
    ...indexingSection(all),
    ...indexingPhasesSection(all),
    ...esLoadWorkLines(all),
    '### CPU per answered request in the load rounds (ms, user + system)',
    '',
    ...(split ? splitCpuLines(all, split) : sharedCpuLines(all)),
    ...(largest ? [...byKindSection(largest), ...targetsSection(largest)] : []),
  ];
}

/** The mix under load: req/s and latency of each side, a row per record count. */
function loadSection(all: CountFigures[], settings: RunSettings): string[] {
  return [
    `### Load: the mix, ${settings.connections} connections, ${settings.rounds} × ${settings.durationSeconds} s per side, A/B interleaved`,
    '',
    ...table(
      [
        'records',
        'API req/s',
        'raw req/s',
        'API/raw',
        'API p50',
        'raw p50',
        'Δ p50',
        'API p99',
        'raw p99',
        'API errors',
      ],
      ['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      all.map((f) => [
        records(f.count),
        int(f.load.api.requestsPerSecond),
        int(f.load.raw.requestsPerSecond),
        ratio(f.load.ratio),
        ms2(f.load.api.p50),
        ms2(f.load.raw.p50),
        ms2(f.load.api.p50 - f.load.raw.p50),
        ms(f.load.api.p99),
        ms(f.load.raw.p99),
        String(f.load.api.errors),
      ]),
    ),
    '',
    'Latencies in ms. req/s: median of the rounds; API/raw: median of the per-round ratios; p50/p99 pooled over the rounds.',
    '',
  ];
}

/** One connection, and the statistics within the mix and uncached. */
function unloadedSection(all: CountFigures[], settings: RunSettings): string[] {
  return [
    `### Unloaded (1 connection, ${settings.probeSeconds} s per side) and statistics`,
    '',
    ...table(
      [
        'records',
        'API p50',
        'raw p50',
        'Δ p50',
        'API p99',
        'raw p99',
        'stats p50 API (mix)',
        'stats p50 raw (mix)',
        'stats p50 API uncached',
        'stats p50 raw uncached',
      ],
      ['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      all.map((f) => [
        records(f.count),
        ms2(f.unloaded.api.p50),
        ms2(f.unloaded.raw.p50),
        ms2(f.unloaded.api.p50 - f.unloaded.raw.p50),
        ms(f.unloaded.api.p99),
        ms(f.unloaded.raw.p99),
        ms(f.load.api.p50ByKind.statistics ?? Number.NaN),
        ms(f.load.raw.p50ByKind.statistics ?? Number.NaN),
        ms(f.statisticsUncached.api.p50),
        ms(f.statisticsUncached.raw.p50),
      ]),
    ),
    '',
    '"(mix)": statistics answers inside the loaded mix, where Elasticsearch\'s shard request cache serves repeated ' +
      'size-0 searches. "uncached": statistics requests only, 1 connection, with `index.requests.cache.enable: false`.',
    '',
  ];
}

/** The list with and without facets, and suggestions, at one connection. */
function facetsAndSuggestionsSection(all: CountFigures[]): string[] {
  return [
    '### Facets and suggestions (1 connection, same bodies on both sides)',
    '',
    ...table(
      [
        'records',
        'list API p50',
        'list raw p50',
        'list + every facet API p50',
        'list + every facet raw p50',
        'facets cost (API)',
        'facets cost (raw)',
        'suggest API p50',
        'suggest raw p50',
        'suggest API p99',
      ],
      ['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      all.map((f) => {
        const { plain, faceted, suggest } = f.searchAdditions;
        return [
          records(f.count),
          ms2(plain.api.p50),
          ms2(plain.raw.p50),
          ms2(faceted.api.p50),
          ms2(faceted.raw.p50),
          ratio(faceted.api.p50 / plain.api.p50),
          ratio(faceted.raw.p50 / plain.raw.p50),
          ms2(suggest.api.p50),
          ms2(suggest.raw.p50),
          ms2(suggest.api.p99),
        ];
      }),
    ),
    '',
    `The list requests of the mix, as they are and with \`facets=${FACET_NAMES.join(',')}\`; ` +
      '"facets cost" is p50 with facets ÷ p50 without. Suggest: what people type, keystroke by keystroke (the ' +
      'start of a name, a third with one typo), `limit=10`.',
    '',
  ];
}

/** Every live record exported, against the raw walk of the same batches. */
function exportSection(all: CountFigures[]): string[] {
  return [
    '### Export (every live record, one client)',
    '',
    ...table(
      [
        'records',
        'NDJSON records/s',
        'CSV records/s',
        'raw walk records/s',
        'NDJSON/raw',
        'CSV/raw',
        'API RSS while exporting',
      ],
      ['---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      all.map((f) => [
        records(f.count),
        int(f.exported.ndjson.recordsPerSecond),
        int(f.exported.csv.recordsPerSecond),
        int(f.exported.raw.recordsPerSecond),
        ratio(f.exported.ndjson.recordsPerSecond / f.exported.raw.recordsPerSecond),
        ratio(f.exported.csv.recordsPerSecond / f.exported.raw.recordsPerSecond),
        `${int(f.exported.apiRssMb)} MiB`,
      ]),
    ),
    '',
    `Raw: the same batch bodies (${EXPORT_BATCH_SIZE} records, search_after on the sort keys) straight from Elasticsearch, the ` +
      'JSON read but not rewritten. The API reads the same batches and writes them as NDJSON or CSV to the socket.',
    '',
  ];
}

/** The indexer's wall time against its floors, and the API's peak memory. */
function indexingSection(all: CountFigures[]): string[] {
  return [
    '### Indexing and the API process',
    '',
    ...table(
      [
        'records',
        'indexed',
        'indexer s',
        'own _bulk s',
        'indexer/own _bulk',
        'plain mapping _bulk s',
        'indexer/plain',
        'own/plain mapping',
        'API peak RSS',
      ],
      ['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      all.map((f) => {
        const plain = f.indexing.plain;
        return [
          records(f.count),
          int(f.indexing.indexer.docs),
          ms(f.indexing.indexer.seconds),
          ms(f.indexing.raw.seconds),
          ratio(f.indexing.ratio),
          plain ? ms(plain.seconds) : 'n/a',
          plain ? ratio(plain.seconds / f.indexing.indexer.seconds) : 'n/a',
          plain ? ratio(f.indexing.raw.seconds / plain.seconds) : 'n/a',
          `${int(f.apiPeakRssMb)} MiB`,
        ];
      }),
    ),
    '',
    'Indexer: the real `reindex` (validate, build, bulk, refresh, count check, comparison with the generation it replaces, alias swap), wall time. Own _bulk: ' +
      "the indexer's documents as prepared NDJSON, same batch size and requests in flight, same mapping and " +
      "settings, plus refresh (the pipeline's floor; the mean of the loads right before and right after the indexer, once Elasticsearch is warm). Plain mapping: the published records as they are into " +
      "Elasticsearch's dynamic mapping (each string a text field with a keyword sub-field), same loading settings. " +
      'indexer/x is a speed ratio (x s ÷ indexer s); own/plain mapping is a time ratio (own s ÷ plain s).',
    '',
  ];
}

/** Where the indexer's wall time went. */
function indexingPhasesSection(all: CountFigures[]): string[] {
  return [
    ...table(
      [
        'records',
        'indexer: validate pass',
        'lock + create index',
        'build + bulk',
        'settle + swap',
        'of which comparison, log and swap',
        'own _bulk total',
      ],
      ['---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      all.map((f) => [
        records(f.count),
        `${ms2(f.indexing.indexer.phases.validate)} s`,
        `${ms2(f.indexing.indexer.phases.prepare)} s`,
        `${ms2(f.indexing.indexer.phases.load)} s`,
        `${ms2(f.indexing.indexer.phases.finish)} s`,
        // Older results files reindexed into a new alias: nothing to compare with.
        f.indexing.indexer.phases.compare === undefined ? '–' : `${ms2(f.indexing.indexer.phases.compare)} s`,
        `${ms2(f.indexing.raw.seconds)} s`,
      ]),
    ),
    '',
    'Where the indexer\'s wall time went (from its progress events); "settle + swap" is live settings, refresh, ' +
      "count check, the comparison with the generation it replaces and the change log's event (the indexer " +
      "replaces a live generation, as an operator's reindex does; untimed, a first one is built before), alias " +
      'swap, retention and lock release.',
    '',
  ];
}

/** p50 of each kind of request under load, at the largest record count. */
function byKindSection(largest: CountFigures): string[] {
  return [
    `### p50 by kind of request under load, ${records(largest.count)} records (ms)`,
    '',
    ...table(
      ['kind', 'share', 'API p50', 'raw p50', 'Δ'],
      ['---', '---:', '---:', '---:', '---:'],
      REQUEST_KINDS.filter((kind) => MIX_WEIGHTS[kind] > 0).map((kind) => {
        const api = largest.load.api.p50ByKind[kind] ?? Number.NaN;
        const raw = largest.load.raw.p50ByKind[kind] ?? Number.NaN;
        return [kind, `${MIX_WEIGHTS[kind]} %`, ms2(api), ms2(raw), ms2(api - raw)];
      }),
    ),
    '',
    `Rounds (req/s), API: ${largest.load.api.rounds.map(int).join(', ')}; raw: ${largest.load.raw.rounds.map(int).join(', ')}.`,
    ...(largest.byKind ? byKindLines(largest) : []),
    '',
  ];
}

/** The targets at the largest record count, each met or missed. */
function targetsSection(largest: CountFigures): string[] {
  return [
    `### Targets at ${records(largest.count)} records (goals, not assertions)`,
    '',
    ...table(
      ['target', 'goal', 'measured', ''],
      ['---', '---', '---:', '---'],
      targetChecks(largest).map((check) => [
        check.name,
        check.goal,
        check.actual,
        check.met ? 'met' : 'MISSED',
      ]),
    ),
    '',
  ];
}

/** The CPU table's cells common to shared-core and core-split runs: one side of one record count. */
function cpuCells(f: CountFigures, side: 'api' | 'raw'): string[] {
  const cpu = f.cpu[side];
  const total = cpu.apiMs + (cpu.esMs ?? 0) + cpu.loadGeneratorMs;
  return [
    records(f.count),
    side,
    ms2(cpu.apiMs),
    cpu.esMs === undefined ? 'n/a' : ms2(cpu.esMs),
    ms2(cpu.loadGeneratorMs),
    ms2(total),
    cpu.coresBusy.toFixed(2),
  ];
}

function sharedCpuLines(all: CountFigures[]): string[] {
  return [
    ...table(
      ['records', 'side', 'API process', 'Elasticsearch', 'load generator', 'total', 'cores busy'],
      ['---:', '---', '---:', '---:', '---:', '---:', '---:'],
      all.flatMap((f) => (['api', 'raw'] as const).map((side) => cpuCells(f, side))),
    ),
    '',
    ...all.map((f) => {
      const total = (cpu: (typeof f.cpu)['api']) =>
        cpu.apiMs + (cpu.esMs ?? Number.NaN) + cpu.loadGeneratorMs;
      return (
        `${records(f.count)}: CPU per request, raw ÷ API side = ${ratio(total(f.cpu.raw) / total(f.cpu.api))} ` +
        `(the throughput ratio to expect when the machine's cores are the limit; measured ${ratio(f.load.ratio)}).`
      );
    }),
    '',
    'Elasticsearch CPU is the whole JVM (a shared cluster also serves others); "cores busy" is the three ' +
      "processes' CPU seconds per second of load, out of the machine's cores.",
    '',
  ];
}

/**
 * --cpu-split: each side is limited by its busier core, CPU 0 (Elasticsearch, ms per request) or CPU 1 (API +
 * load generator), so the expected ratio is the ratio of those maxima, not of the CPU totals.
 */
function splitCpuLines(all: CountFigures[], split: CpuSplitSettings): string[] {
  const esCore = (cpu: CpuFigures): number => cpu.esMs ?? Number.NaN;
  const benchCore = (cpu: CpuFigures): number => cpu.apiMs + cpu.loadGeneratorMs;
  const busiest = (cpu: CpuFigures): number => Math.max(esCore(cpu), benchCore(cpu));
  const busy = (value: number | undefined): string =>
    value !== undefined && Number.isFinite(value) ? value.toFixed(2) : '–';
  return [
    ...table(
      [
        'records',
        'side',
        'API process',
        'Elasticsearch',
        'load generator',
        'total',
        'cores busy',
        `CPU ${split.esCpu} busy (ES)`,
        `CPU ${split.benchCpu} busy (API + load gen.)`,
      ],
      ['---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      all.flatMap((f) =>
        (['api', 'raw'] as const).map((side) => [
          ...cpuCells(f, side),
          busy(f.cpu[side].esCoreBusy),
          busy(f.cpu[side].benchCoreBusy),
        ]),
      ),
    ),
    '',
    ...all.map(
      (f) =>
        `${records(f.count)}: CPU per request on the busier core, raw ÷ API side = ` +
        `${ratio(busiest(f.cpu.raw) / busiest(f.cpu.api))} (API side: CPU ${split.esCpu} ${ms2(esCore(f.cpu.api))} ms, ` +
        `CPU ${split.benchCpu} ${ms2(benchCore(f.cpu.api))} ms; raw side: CPU ${split.esCpu} ${ms2(esCore(f.cpu.raw))} ms, ` +
        `CPU ${split.benchCpu} ${ms2(benchCore(f.cpu.raw))} ms): the throughput ratio to expect when a core is the ` +
        `limit; measured ${ratio(f.load.ratio)}.`,
    ),
    '',
    `Core split: CPU ${split.esCpu} runs only Elasticsearch's JVM, CPU ${split.benchCpu} the API process and the ` +
      `load generator (the bench process). "CPU n busy" is that core's share used by those processes (out of 1); ` +
      'other work on the machine is not pinned and can take either core. Elasticsearch CPU is the whole JVM.',
    '',
  ];
}

export function profileSections(all: CountFigures[]): string[] {
  const lines: string[] = [];
  for (const f of all) {
    if (f.apiProfile) {
      lines.push(`### CPU profile of the API process, one mix round at ${records(f.count)} records`, '');
      lines.push(...profileLines(f.apiProfile), '');
    }
    if (f.indexerProfile) {
      lines.push(
        `### CPU profile of the indexer (reindex in the bench process), ${records(f.count)} records`,
        '',
      );
      lines.push(...profileLines(f.indexerProfile), '');
    }
  }
  return lines;
}

export function markdownReport(all: CountFigures[], context: RunContext): string {
  const { machine, settings } = context;
  const lines = [
    `# Benchmark results, ${context.date}${settings.cpuSplit ? ' (CPU split)' : ''}`,
    '',
    'Generated by `npm run bench` (bench/mix.ts); bench/README.md says what is measured and how, docs/performance.md what the figures mean.',
    '',
    ...(settings.cpuSplit ? [`- **${cpuSplitLine(settings.cpuSplit)}**`] : []),
    `- Machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB.toFixed(1)} GiB memory, ${machine.platform}; load average at the end ${machine.loadAverage}`,
    `- Node ${machine.node}; Elasticsearch ${context.esVersion} (from \`_nodes/_local\`, heap ${context.esHeap}) at ${context.esUrl}`,
    `- Records: ${all.map((f) => `${records(f.count)} generated (${int(f.published)} published, ${int(f.live)} live)`).join('; ')}; seed ${settings.seed}`,
    `- Mix: ${settings.mixSize} distinct requests (${REQUEST_KINDS.map((kind) => `${kind} ${MIX_WEIGHTS[kind]} %`).join(', ')}); ` +
      `verified before the load: ${all.map((f) => `${f.verify.checked} checked, ${f.verify.mismatches} mismatches, ${f.verify.empty} empty`).join('; ')}`,
    `- API: ${settings.apiMode === 'dist' ? 'compiled (`node dist/src/server.js`)' : '`node --import tsx src/server.ts`'}, own process, ` +
      `LOG_LEVEL=${settings.logLevel} (stdout to /dev/null), in-memory rate limit raised to 1,000,000/s; ` +
      `warm-up ${settings.warmupSeconds} s per side before the rounds`,
    `- Whole run: ${(context.totalSeconds / 60).toFixed(1)} min`,
    '',
    ...resultTables(all, settings),
    ...profileSections(all),
  ];
  return `${lines.join('\n')}\n`;
}

/** Each kind alone: Elasticsearch's CPU per request on each side, the API's, the ratio, the unloaded overhead. */
function byKindLines(figures: CountFigures): string[] {
  const byKind = figures.byKind ?? {};
  const es = (value: number | undefined) => (value === undefined ? 'n/a' : ms2(value));
  const ratio = (over: number | undefined, under: number | undefined) =>
    over !== undefined && under ? `${(over / under).toFixed(2)}×` : 'n/a';
  const rows = REQUEST_KINDS.filter((kind) => byKind[kind]).map((kind) => {
    const k = byKind[kind]!;
    const apiShare = k.esMsApi ? `${Math.round((k.apiMs / k.esMsApi) * 100)} %` : 'n/a';
    return [
      kind,
      es(k.esMsApi),
      es(k.esMsRawAtApiRate),
      ratio(k.esMsApi, k.esMsRawAtApiRate),
      k.esMsReferenceAtApiRate === undefined ? 'same body' : es(k.esMsReferenceAtApiRate),
      ratio(k.esMsApi, k.esMsReferenceAtApiRate ?? k.esMsRawAtApiRate),
      es(k.esMsRaw),
      ms2(k.apiMs),
      apiShare,
      `${k.ratio.toFixed(2)}×`,
      ms2(k.unloadedOverhead),
    ];
  });
  return [
    '',
    `### Each kind alone, ${records(figures.count)} records: where a request's CPU goes (ms per answered request)`,
    '',
    ...table(
      [
        'kind',
        'ES CPU, API side',
        "ES, raw at the API's rate",
        'ES API/raw',
        "ES, reference at the API's rate",
        'ES API/reference',
        'ES, raw at full speed',
        'API CPU',
        'API / its ES',
        'API/raw req/s',
        'unloaded p50 Δ',
      ],
      ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      rows,
    ),
    '',
    "Loaded: API, raw, raw, API at the run's connections as fast as answers come, then the raw side at the API " +
      "side's req/s, each connection's requests evenly spaced as the API's are (bench/perf/pacedLoad.ts: " +
      "Elasticsearch's CPU per request rises with the pause between its requests, its threads waking and spinning " +
      'for each, so the sides are compared at the same rate and spacing). The reference: the same body ' +
      'with the text query swapped for a plain multi_match (fuzziness AUTO, every word) over the same four fields, ' +
      'bench/perf/reference.ts; the other kinds send the plain form already. CPU read from /proc around each run ' +
      '(Elasticsearch only when it runs here); unloaded: 1 connection, API, raw, raw, API. Goals (issue 35): ES ' +
      "API/reference ≤ 1.00×, API CPU ≤ 15 % of its Elasticsearch's, unloaded Δ ≤ 1 ms.",
  ];
}

/** Elasticsearch's own work during each load (node stats), and the mapping's cost per field family. */
function esLoadWorkLines(all: CountFigures[]): string[] {
  const rows = all.flatMap((f) => {
    const [ownBefore, ownAfter] = f.indexing.ownRuns ?? [f.indexing.raw];
    // [name, load, the own load it is compared with (families only)]
    const loads: [string, IndexingTiming | undefined, IndexingTiming?][] = [
      ['plain mapping _bulk', f.indexing.plain],
      ...(f.indexing.families ?? []).map((cost): [string, IndexingTiming, IndexingTiming] => [
        `own _bulk without ${cost.family}`,
        cost.without,
        cost.own ?? f.indexing.raw,
      ]),
      ['own _bulk, right before the indexer', ownBefore],
      ['indexer', f.indexing.indexer],
      ['own _bulk, right after the indexer', ownAfter],
    ];
    return loads
      .filter((entry): entry is [string, IndexingTiming, IndexingTiming?] => entry[1] !== undefined)
      .map(([name, timing, own]) => {
        const work = timing.es;
        const s = (value: number | undefined) => (value === undefined ? 'n/a' : `${ms2(value)} s`);
        return [
          records(f.count),
          name,
          `${ms2(timing.seconds)} s`,
          s(work?.cpu),
          'cpuSeconds' in timing ? s((timing as ReindexTiming).cpuSeconds) : '',
          own ? `${ms2(own.seconds - timing.seconds)} s (own: ${ms2(own.seconds)} s)` : '',
          s(work?.indexing),
          s(work?.merges),
          s(work?.mergesThrottled),
          s(work?.refresh),
          s(work?.gcYoung),
          s(work?.gcOld),
        ];
      });
  });
  if (rows.length === 0) return [];
  return [
    '### Each load: wall time and what Elasticsearch spent meanwhile',
    '',
    ...all
      .filter((f) => f.indexing.warmup?.length)
      .map(
        (f) =>
          `${records(f.count)}: first the own load untimed until two in a row agree within 10 % (Elasticsearch's JIT ` +
          `warming up): ${f.indexing.warmup!.map((seconds) => `${ms2(seconds)} s`).join(', ')}.`,
      ),
    '',
    ...table(
      [
        'records',
        'load',
        'wall',
        'ES CPU',
        'indexer CPU',
        "own − this (the family's cost)",
        'ES indexing',
        'ES merges',
        'of which throttled',
        'ES refresh',
        'GC young',
        'GC old',
      ],
      ['---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:'],
      rows,
    ),
    '',
    "From the local node's stats before and after each load (ES CPU: its process, all threads; indexer CPU: the " +
      "reindex's own, in the bench process, taken from the same 2 cores; indexing, merge and refresh time are summed over " +
      "Elasticsearch's threads, so they can exceed the wall time). A family's cost is the wall time of an own load run " +
      'right next to it (before or after, alternating) minus the load without it (`--mapping-cost`; one run each, so differences under a second are noise).',
    '',
  ];
}
