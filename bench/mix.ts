// `npm run bench` (the `mix` suite): the performance benchmark (issue 7). For each record count it generates the
// records, times the real indexer against a plain `_bulk` of the same documents, then drives the same request mix
// with autocannon at fixed concurrency against the API (its own process) and against raw Elasticsearch `_search`
// with exactly the bodies the API sends, in interleaved A/B rounds. Prints the tables and writes
// bench/results/<date>.md. Its parts, one concept a module, are in bench/mix/: indexing, the load rounds, CPU
// accounting, profiling, one record count from end to end, and the results file.
//
//   npm run bench                                   # 100k records (about 2 minutes on 2 cores)
//   npm run bench -- --count 10000,100000           # growth: the same mix at each count, one results file
//   npm run bench -- --count 1000000                # 1M: manual (generating and indexing take a while)
//   npm run bench -- --quick                        # its quick form: a few hundred records, no results file
//   npm run bench -- --cpu-split                    # Elasticsearch on CPU 0, everything else on CPU 1
//
// The public-traffic scenarios of issue 21 (no-repeat and Zipf mixes, statistics) are in bench/scale.ts.
// ES_URL (and ES_API_KEY or ES_USERNAME/ES_PASSWORD) pick the cluster; everything the run creates is named
// bench-<time>-<random>… and deleted at the end, also on Ctrl-C.
import { InvalidArgumentError } from 'commander';
import { positiveInteger } from '../indexer/optionParsers.js';
import { withFixture, type BenchFixture } from './fixture.js';
import { type ApiMode } from './perf/apiProcess.js';
import { applyCpuSplit, cpuSplitProblem, localEsPid, type CpuSplit } from './perf/cpuSplit.js';
import { localNodeHttpPort, localNodeInfo } from './perf/rawElasticsearch.js';
import { machineInfo } from './perf/machine.js';
import { REQUEST_KINDS, type RequestKind } from './perf/requestMix.js';
import { profileSections, resultTables } from './perf/tables.js';
import { targetChecks, type CountFigures } from './perf/summary.js';
import { defineSuite, namesOf, type SharedOptions } from './suite.js';
import { BreakageError, log, type CountSettings } from './mix/common.js';
import { benchmarkCount } from './mix/count.js';
import { render, writeResults } from './mix/results.js';

interface MixOptions extends SharedOptions {
  connections: number;
  rounds?: number;
  duration?: number;
  warmup?: number;
  probe?: number;
  mixSize?: number;
  kinds?: RequestKind[];
  api?: ApiMode;
  apiRoot?: string;
  logLevel: string;
  profile?: boolean;
  mappingCost?: boolean;
  cpuSplit?: boolean;
  out?: string;
  render?: string;
}

/** --cpu-split cannot run on this machine: said as it is, without a stack. */
class CpuSplitRefused extends Error {}

export default defineSuite<MixOptions>({
  name: 'mix',
  module: import.meta.url,
  summary:
    'the request mix against the API and raw Elasticsearch, and the indexer against raw _bulk (default)',
  count: 100_000,
  severalCounts: true,
  seed: 20261122,
  writes: true,
  options: (command) =>
    command
      .option('--connections <n>', 'concurrent connections of the load rounds', positiveInteger, 16)
      .option('--rounds <n>', 'A/B rounds per side (default 3; quick 1)', positiveInteger)
      .option('--duration <s>', 'seconds per round and side (default 10; quick 2)', positiveInteger)
      .option('--warmup <s>', 'warm-up seconds per side (default 3; quick 1)', positiveInteger)
      .option('--probe <s>', 'seconds at 1 connection per side (default 6; quick 1)', positiveInteger)
      .option('--mix-size <n>', 'distinct requests in the mix (default 1000; quick 200)', positiveInteger)
      .option(
        '--kinds <list>',
        'the kinds of request measured alone, comma-separated (default: all of them)',
        namesOf(REQUEST_KINDS, 'kind'),
      )
      .option('--api <mode>', 'dist: compiled (default); tsx: from the sources (quick)', (value: string) => {
        if (value !== 'dist' && value !== 'tsx') throw new InvalidArgumentError('dist or tsx');
        return value;
      })
      .option('--log-level <level>', "the API's LOG_LEVEL", 'info')
      .option('--api-root <dir>', "another checkout's API, with this checkout's load (a before/after)")
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
      .option('--render <json>', 'rewrite the results Markdown from its saved .json (no benchmark)'),
  // One kind measured alone: the others go through the very same code. Four connections: the admission
  // control's room at its lowest limit on two cores (past it, refusals; the quick API starts there).
  quick: { count: 300, args: ['--kinds', 'list_q', '--duration', '1', '--connections', '4'] },
  run: async (options) => {
    try {
      await (options.render
        ? render(options.render)
        : withFixture('bench', (fixture) => benchmark(options, fixture)));
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
  },
});

async function benchmark(options: MixOptions, fixture: BenchFixture): Promise<void> {
  const started = performance.now();
  const quick = options.quick;
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
    kinds: options.kinds ?? REQUEST_KINDS,
  };
  const recordCounts = options.counts;
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

  const build = await fixture.build(settings.apiMode as ApiMode, options.apiRoot);
  if (options.apiRoot) log(`the API of ${options.apiRoot}`);

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

  if (options.write) await writeResults(all, { node, es, settings, totalSeconds, out: options.out });
}
