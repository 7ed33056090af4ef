// `npm run bench -- overload` runs this file: the API at and past its capacity. One API instance as `npm start`
// runs it (compiled, defaults: ES_REQUEST_TIMEOUT_MS 2000 and so a target of 1 s, the response cache on, logs
// written), the rate limit raised out of the way, over generated records, with distinct full-text searches that no
// cache can answer:
//   1. closed loops of 16, 64 and 256 connections (each waits for its answer before it asks again): what the
//      machine serves must never be refused; capacity is the loop of 16's answers per second;
//   2. open loops (load that arrives as users do, bench/perf/openLoad.ts) at 1×, 2×, 5× and 10× that capacity,
//      each for --seconds: goodput and its ratio to capacity, p50/p99 of answers and of refusals, requests that
//      failed otherwise or were left without an answer within 10 s, a refusal's CPU estimated from the step;
//      beside it, probes of /health/live, a cached answer and /health/ready at 10 a second each;
//   3. a refusal's CPU, measured alone: an instance whose one slot is held by a search slowed by a TCP proxy, so
//      that every request of a closed loop of 16 is refused; its CPU time over the refusals.
// It ends with the goals of issue 57, each met or short. `--instances 1,2` also runs two instances sharing the
// Elasticsearch, the load split between them as a balancer would. `--api-root DIR` runs the API of another
// checkout (e.g. the commit before a change) for a before/after.
//
//   ES_URL=http://127.0.0.1:9200 npm run bench -- overload                 # writes bench/results/<date>-overload.md
//   ES_URL=… npm run bench -- overload --api-root /tmp/before --out /tmp/overload-before
import { existsSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { positiveInteger } from '../indexer/optionParsers.js';
import { withFixture, type BenchFixture } from './fixture.js';
import { apiModeOf, defineSuite, type SharedOptions } from './suite.js';
import { REPO_ROOT, type ApiBuild, type ApiProcess } from './perf/apiProcess.js';
import { cpuSecondsIfLocal, machineInfo, preciseCpuSeconds } from './perf/machine.js';
import { localNodeInfo } from './perf/rawElasticsearch.js';
import { percentile, runClosedLoop, runOpenLoop, type Outcomes } from './perf/openLoad.js';
import type { PpaRecord } from '../indexContract/record.js';
import { Random } from '../tools/generate/random.js';
import { foldText } from '../indexContract/text/fold.js';
import { madeUpWord } from './perf/typedText.js';
import { freePort } from '../tools/services/net.js';
import { startTcpProxy, targetOf, type TcpProxy } from '../tools/services/tcpProxy.js';

interface OverloadOptions extends SharedOptions {
  seconds: number;
  factors: string;
  closed: string;
  instances: string;
  mixes: string;
  apiRoot?: string;
  out?: string;
}

export default defineSuite<OverloadOptions>({
  name: 'overload',
  module: import.meta.url,
  summary: 'past capacity: open-loop arrivals at multiples of capacity, one and two instances',
  count: 20_000,
  seed: 20261127,
  writes: true,
  options: (command) =>
    command
      .option('--seconds <n>', 'seconds of each open-loop step', positiveInteger, 10)
      .option('--factors <list>', 'arrival rates as multiples of capacity', '1,2,5,10')
      .option('--closed <list>', 'connections of the closed loops, comma-separated', '16,64,256')
      .option('--instances <list>', 'API instances per run, comma-separated', '1')
      .option(
        '--mixes <list>',
        `searches of each run, comma-separated: ${MIXES.join(', ')} (docs: bench/README.md)`,
        MIXES.join(','),
      )
      .option('--api-root <dir>', 'run the API of this checkout instead (before/after runs)')
      .option('--out <base>', 'results file base name (default bench/results/<date>-overload)'),
  // Past capacity must still be reached (the run fails without a refusal): the steps stay a few seconds long.
  // One mix: the other differs only in the searches it draws (distinctSearches), and a smoke run measures nothing.
  quick: {
    count: 2000,
    args: ['--seconds', '2', '--factors', '5', '--closed', '16', '--mixes', 'half-missed'],
  },
  run: overload,
});
const DEADLINE_MS = 10_000;
const PROBE_RATE = 10;

const log = (message: string) => process.stderr.write(`overload: ${message}\n`);
const load1 = () => Number(loadavg()[0]!.toFixed(2));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The searches a run sends (issue 72): `found`, three words of one live record's name and place (each finds that
 * record at least); `half-missed`, the same with every other one given a made-up word besides, so that it finds
 * nothing and asks for its "did you mean". (Until issue 72 the searches were three words drawn from all the
 * records, of which about 97 in 100 found nothing: the bench measured misses without saying so.)
 */
const MIXES = ['found', 'half-missed'] as const;
type Mix = (typeof MIXES)[number];

/** A live record's words of four letters or more, folded, from its name and its place. */
const wordsOf = (record: PpaRecord): string[] => [
  ...new Set(
    foldText(`${record.project_name} ${record.location}`)
      .split(/[^a-z]+/)
      .filter((word) => word.length >= 4),
  ),
];

/** Distinct searches of one shape, none asked twice in a run; `missed`: every other one with a made-up word. */
function distinctSearches(records: PpaRecord[], count: number, seed: number, missed: boolean): string[] {
  const worded = records.map(wordsOf).filter((words) => words.length >= 3);
  const random = new Random(seed);
  const paths = new Set<string>();
  // Generated names share their words: three words of a record in any order, and a page size of 20 to 30 (the same
  // work, another answer for the response cache), give enough distinct searches; the draw is bounded all the same.
  for (let tries = 0; paths.size < count; tries++) {
    if (tries > count * 20)
      throw new Error(`only ${paths.size} distinct searches of three words: raise --count`);
    const words = random.sample(random.pick(worded), 3);
    // A random order: more distinct searches of the same work.
    for (let index = words.length - 1; index > 0; index--) {
      const other = random.int(0, index);
      [words[index], words[other]] = [words[other]!, words[index]!];
    }
    if (missed && paths.size % 2 === 1) words.splice(random.int(0, 3), 0, madeUpWord(random, 7));
    paths.add(`/api/v1/ppas?q=${encodeURIComponent(words.join(' '))}&per_page=${random.int(20, 30)}`);
  }
  return [...paths];
}

interface Step {
  factor: number;
  rate: number;
  outcomes: Outcomes;
  probes: { live: Outcomes; cached: Outcomes; ready: Outcomes };
  load: number;
  /** The first instance's admission limit at the step's end (null: an API without admission control). */
  limit: number | null;
  /** p50 and p99 of the refusals' server-side time (ms, a histogram bucket's bound), from the APIs' metrics. */
  serverRefusal: { p50: number; p99: number } | null;
  /** p50 and p99 of /health/live's server-side time (ms, a bucket's bound), from the APIs' metrics. */
  serverLive: { p50: number; p99: number } | null;
  /** p99 and max of the first API's event-loop delay in the step (ms; prom-client's, with its 10 ms tick in it). */
  apiDelay: { p99: number; max: number } | null;
  /** p99 of this process's own event-loop delay in the step (ms): how late the load generator itself was. */
  generatorDelayP99: number;
  /** CPU seconds a second in the step: the APIs', Elasticsearch's (null: not on this machine), the generator's. */
  cores: { api: number; es: number | null; generator: number };
}

interface ClosedLoop {
  connections: number;
  outcomes: Outcomes;
  /** The APIs' CPU per answer (ms). */
  cpuPerAnswerMs: number;
}

/** A histogram of every instance's metrics, summed: upper bound (s) → count. `labels`: a label the series has. */
async function histogramBuckets(urls: string[], name: string, labels = ''): Promise<Map<number, number>> {
  const buckets = new Map<number, number>();
  const line = new RegExp(`^${name}_bucket\\{([^}]*)\\} (\\d+)`, 'gm');
  for (const url of urls) {
    const text = await fetch(url)
      .then((response) => response.text())
      .catch(() => '');
    for (const [, series, count] of text.matchAll(line)) {
      const le = /le="([^"]+)"/.exec(series!)?.[1];
      if (le === undefined || !series!.includes(labels)) continue;
      const bound = le === '+Inf' ? Infinity : Number(le);
      buckets.set(bound, (buckets.get(bound) ?? 0) + Number(count));
    }
  }
  return buckets;
}

/** The API's event-loop delay, p99 and max since the last read (ms), from prom-client's default metrics. */
async function apiLoopDelay(url: string): Promise<{ p99: number; max: number } | null> {
  const text = await fetch(url)
    .then((response) => response.text())
    .catch(() => '');
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1]) * 1000;
  const p99 = read('ppa_nodejs_eventloop_lag_p99_seconds');
  return Number.isNaN(p99) ? null : { p99, max: read('ppa_nodejs_eventloop_lag_max_seconds') };
}

/** The refusals' server-side time (ppa_overload_refusal_duration_seconds). */
const refusalBuckets = (urls: string[]) => histogramBuckets(urls, 'ppa_overload_refusal_duration_seconds');
/** /health/live's server-side time (ppa_http_request_duration_seconds, its route). */
const liveBuckets = (urls: string[]) =>
  histogramBuckets(urls, 'ppa_http_request_duration_seconds', 'route="/health/live"');

/** p50 and p99 (ms, as the bound of the bucket they fall in) of what the histogram counted between two reads. */
function bucketQuantiles(
  before: Map<number, number>,
  after: Map<number, number>,
): { p50: number; p99: number } | null {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const counts = bounds.map((bound) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0));
  const total = counts[counts.length - 1] ?? 0;
  if (total === 0) return null;
  const at = (q: number) => bounds[counts.findIndex((count) => count >= q * total)]! * 1000;
  return { p50: at(0.5), p99: at(0.99) };
}

interface Run {
  instances: number;
  mix: Mix;
  closed: ClosedLoop[];
  capacityPerSecond: number;
  unloaded: { p50: number; p99: number; failed: number };
  steps: Step[];
}

/** A refusal's CPU measured alone: refusals, the API's CPU over them, and their time at the client. */
interface RefusalCost {
  refused: number;
  others: number;
  cpuPerRefusalMs: number;
  p50: number;
  p99: number;
}

const summary = (outcomes: Outcomes) => ({
  sent: outcomes.sent,
  answered: outcomes.answered,
  refused: outcomes.refused,
  failed: outcomes.failed,
  unanswered: outcomes.unanswered,
  goodput: outcomes.answered / outcomes.seconds,
  answer_p50: percentile(outcomes.answerMs, 0.5),
  answer_p99: percentile(outcomes.answerMs, 0.99),
  refusal_p50: percentile(outcomes.refusalMs, 0.5),
  refusal_p99: percentile(outcomes.refusalMs, 0.99),
  failure_p50: percentile(outcomes.failureMs, 0.5),
});

/** The CPU seconds of every API process, summed. */
async function apisCpuSeconds(apis: ApiProcess[]): Promise<number> {
  const seconds = await Promise.all(apis.map(async (api) => (await preciseCpuSeconds(api.pid)).process));
  return seconds.reduce((sum, value) => sum + value, 0);
}

const ms = (value: number) => (Number.isNaN(value) ? '–' : value < 10 ? value.toFixed(1) : value.toFixed(0));

async function overload(options: OverloadOptions): Promise<void> {
  await withFixture('overload', async (fixture) => {
    const bench = await setUpBench(fixture, options);
    const runs: Run[] = [];
    for (const mix of mixesOf(options))
      for (const instances of options.instances.split(',').map(Number))
        runs.push(await runInstances(bench, instances, mix));
    const refusalCost = await measureRefusalCost(bench);
    const report = render(
      runs,
      refusalCost,
      machineInfo(),
      bench.source === REPO_ROOT ? 'this checkout' : bench.source,
      options,
    );
    process.stdout.write(report);
    if (options.write) await writeResults(options, report, runs, refusalCost);
    // A smoke run (npm test) must show the suite works end to end: refusals measured, answers under load.
    if (options.quick && (refusalCost.refused === 0 || runs.some((run) => run.capacityPerSecond <= 0))) {
      throw new Error('overload --quick: no refusal measured, or no answer under load');
    }
  });
}

/** What every step of a run shares: the options, the fixture, the index, the API build and the searches. */
interface OverloadBench {
  options: OverloadOptions;
  fixture: BenchFixture;
  alias: string;
  /** The checkout whose API runs (--api-root, else this one). */
  source: string;
  build: ApiBuild;
  /** Elasticsearch's process when it runs on this machine. */
  esPid: number | undefined;
  /** Each mix's searches. */
  supplies: Map<Mix, SearchSupply>;
  /** The run's: those of the mix it runs. */
  searches: SearchSupply;
}

function mixesOf(options: OverloadOptions): Mix[] {
  const asked = options.mixes.split(',').map((name) => name.trim());
  for (const name of asked) {
    if (!(MIXES as readonly string[]).includes(name))
      throw new Error(`--mixes: unknown mix "${name}" (one of ${MIXES.join(', ')})`);
  }
  return asked as Mix[];
}

/** Distinct searches handed out in order, none twice in a run (the response cache could answer a repeat). */
class SearchSupply {
  private cursor = 0;

  constructor(private readonly searches: string[]) {}

  /** Each run on the same searches (a new API process: an empty response cache). */
  rewind(): void {
    this.cursor = 0;
  }

  take(n: number): string[] {
    const taken = this.searches.slice(this.cursor, this.cursor + n);
    this.cursor += n;
    if (taken.length < n)
      throw new Error(`only ${this.searches.length} distinct searches: lower --count or --seconds`);
    return taken;
  }
}

/** The corpus indexed, the API of the checkout built, the searches drawn. */
async function setUpBench(fixture: BenchFixture, options: OverloadOptions): Promise<OverloadBench> {
  const { count, quick } = options;
  log(`${count} records: generating and indexing (load ${load1()})…`);
  const { alias, corpus } = await fixture.indexedCorpus({
    count,
    seed: options.seed,
    sampleSize: Math.min(20_000, count),
  });
  const source = options.apiRoot ? resolve(options.apiRoot) : REPO_ROOT;
  if (source !== REPO_ROOT && !existsSync(join(source, 'node_modules'))) {
    await symlink(join(REPO_ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
  }
  const build = await fixture.build(apiModeOf(options), source);
  const esPid = (await localNodeInfo(fixture.es).catch(() => undefined))?.pid;
  // Enough distinct searches that none repeats in a run (the response cache could answer a repeat).
  const supplies = new Map<Mix, SearchSupply>();
  for (const mix of mixesOf(options)) {
    const paths = distinctSearches(
      corpus.sample,
      quick ? 40_000 : 400_000,
      options.seed,
      mix === 'half-missed',
    );
    supplies.set(mix, new SearchSupply(paths));
  }
  const searches = supplies.values().next().value!;
  return { options, fixture, alias, source, build, esPid, supplies, searches };
}

/** The API instances of one run, each with its own metrics port. */
interface Instances {
  apis: ApiProcess[];
  bases: string[];
  metricsUrls: string[];
}

/** One run: its instances started, their unloaded latency, the closed loops, then the open-loop steps. */
async function runInstances(shared: OverloadBench, instances: number, mix: Mix): Promise<Run> {
  const bench = { ...shared, searches: shared.supplies.get(mix)! };
  const { options, searches } = bench;
  const running = await startInstances(bench, instances);
  try {
    searches.rewind();
    // Unloaded latency first, on a quiet instance (after 100 searches to warm it), then a warm-up under load.
    log(`${instances} instance(s), ${mix}: unloaded latency, then warming up (load ${load1()})`);
    const single = await unloadedThenWarm(bench, running.bases);
    const closed: ClosedLoop[] = [];
    for (const connections of options.closed.split(',').map(Number)) {
      closed.push(await closedLoop(bench, running, instances, connections));
    }
    const capacityLoop = closed.find((loop) => loop.connections === 16) ?? closed[0]!;
    const capacityPerSecond = capacityLoop.outcomes.answered / capacityLoop.outcomes.seconds;
    await primeCachedAnswer(running.bases);
    const steps: Step[] = [];
    for (const factor of options.factors.split(',').map(Number)) {
      steps.push(await openLoopStep(bench, running, instances, factor, capacityPerSecond));
    }
    const unloaded = {
      p50: percentile(single.answerMs, 0.5),
      p99: percentile(single.answerMs, 0.99),
      failed: single.failed + single.refused,
    };
    return { instances, mix, closed, capacityPerSecond, unloaded, steps };
  } finally {
    await Promise.all(running.apis.map((api) => api.stop().catch(() => undefined)));
  }
}

async function startInstances(
  { fixture, build, alias }: OverloadBench,
  instances: number,
): Promise<Instances> {
  const apis: ApiProcess[] = [];
  const metricsUrls: string[] = [];
  for (let i = 0; i < instances; i++) {
    const metricsPort = await freePort();
    metricsUrls.push(`http://127.0.0.1:${metricsPort}/metrics`);
    apis.push(
      await fixture.startApi({
        build,
        alias,
        logLevel: 'info',
        // As users run it: the default deadline (startApi's 30 s is for measuring, not judging).
        // METRICS_PORT: the refusals' server-side time (ppa_overload_refusal_duration_seconds), read per step.
        env: { ES_REQUEST_TIMEOUT_MS: '2000', METRICS_PORT: String(metricsPort) },
      }),
    );
  }
  return { apis, bases: apis.map((api) => api.url), metricsUrls };
}

/** 100 searches to warm a quiet instance, the unloaded latency at 1 connection (returned), a warm-up at 16. */
async function unloadedThenWarm(
  { options: { quick }, searches }: OverloadBench,
  bases: string[],
): Promise<Outcomes> {
  await runClosedLoop({
    bases,
    paths: searches.take(100),
    connections: 1,
    seconds: 2,
    deadlineMs: DEADLINE_MS,
  });
  const single = await runClosedLoop({
    bases,
    paths: searches.take(quick ? 600 : 3_000),
    connections: 1,
    seconds: quick ? 2 : 5,
    deadlineMs: DEADLINE_MS,
  });
  await runClosedLoop({
    bases,
    paths: searches.take(quick ? 300 : 2_000),
    connections: 16,
    seconds: quick ? 2 : 5,
    deadlineMs: DEADLINE_MS,
  });
  return single;
}

/** A closed loop of `connections`, each waiting for its answer before it asks again; the APIs' CPU an answer. */
async function closedLoop(
  { options, searches }: OverloadBench,
  { apis, bases }: Instances,
  instances: number,
  connections: number,
): Promise<ClosedLoop> {
  const { quick } = options;
  const cpuBefore = await apisCpuSeconds(apis);
  const outcomes = await runClosedLoop({
    bases,
    paths: searches.take(quick ? 3_000 : 60_000),
    connections,
    seconds: quick ? 2 : options.seconds,
    deadlineMs: DEADLINE_MS,
  });
  const cpuPerAnswerMs = (((await apisCpuSeconds(apis)) - cpuBefore) * 1000) / Math.max(1, outcomes.answered);
  const s = summary(outcomes);
  log(
    `${instances} instance(s): closed loop of ${connections}: ${s.goodput.toFixed(0)} answers/s, refused ${s.refused} ` +
      `of ${s.sent}, failed ${s.failed}, p50/p99 ${s.answer_p50.toFixed(0)}/${s.answer_p99.toFixed(0)} ms, ` +
      `API CPU ${cpuPerAnswerMs.toFixed(2)} ms an answer (load ${load1()})`,
  );
  await sleep(quick ? 300 : 2_000);
  return { connections, outcomes, cpuPerAnswerMs };
}

/** The cached answer the probes ask for. */
const CACHED_PATH = '/api/v1/ppas?q=solar';

/** A cached answer for the probes: asked twice, so it is kept once the cache knows the generation. */
async function primeCachedAnswer(bases: string[]): Promise<void> {
  for (let i = 0; i < 3; i++)
    for (const base of bases) await fetch(`${base}${CACHED_PATH}`).then((r) => r.arrayBuffer());
}

/** One open-loop step at `factor` × capacity, with the probes beside it and the instances' own readings. */
async function openLoopStep(
  { options: { quick, seconds }, searches, esPid }: OverloadBench,
  { apis, bases, metricsUrls }: Instances,
  instances: number,
  factor: number,
  capacityPerSecond: number,
): Promise<Step> {
  const rate = Math.round(capacityPerSecond * factor);
  const paths = searches.take(Math.ceil(rate * seconds));
  log(`${instances} instance(s): ${factor}× = ${rate}/s for ${seconds} s (load ${load1()})`);
  const probe = (path: string) =>
    runOpenLoop({ bases, paths: [path], ratePerSecond: PROBE_RATE, seconds, deadlineMs: DEADLINE_MS });
  const bucketsBefore = await refusalBuckets(metricsUrls);
  const liveBefore = await liveBuckets(metricsUrls); // (the last read: prom-client's loop delay starts anew)
  const cpuBefore = await apisCpuSeconds(apis);
  const esBefore = await cpuSecondsIfLocal(esPid);
  const generatorBefore = process.cpuUsage();
  const generatorDelay = monitorEventLoopDelay({ resolution: 10 });
  generatorDelay.enable();
  const [outcomes, live, cached, ready] = await Promise.all([
    runOpenLoop({ bases, paths, ratePerSecond: rate, seconds, deadlineMs: DEADLINE_MS }),
    probe('/health/live'),
    probe(CACHED_PATH),
    probe('/health/ready'),
  ]);
  generatorDelay.disable();
  const apiDelay = await apiLoopDelay(metricsUrls[0]!); // (first: every read of /metrics resets it)
  const generatorCpu = process.cpuUsage(generatorBefore);
  const esAfter = await cpuSecondsIfLocal(esPid);
  const cpuMs = ((await apisCpuSeconds(apis)) - cpuBefore) * 1000;
  const readiness = (await fetch(`${bases[0]}/health/ready`).then((r) => r.json())) as {
    load?: { limit?: number };
  };
  const step: Step = {
    factor,
    rate,
    outcomes,
    probes: { live, cached, ready },
    load: load1(),
    limit: readiness.load?.limit ?? null,
    serverRefusal: bucketQuantiles(bucketsBefore, await refusalBuckets(metricsUrls)),
    serverLive: bucketQuantiles(liveBefore, await liveBuckets(metricsUrls)),
    apiDelay,
    cores: {
      api: cpuMs / 1000 / outcomes.seconds,
      es: esBefore === undefined || esAfter === undefined ? null : (esAfter - esBefore) / outcomes.seconds,
      generator: (generatorCpu.user + generatorCpu.system) / 1e6 / outcomes.seconds,
    },
    // (The histogram holds the times between ticks of 10 ms: the delay is what is past the tick.)
    generatorDelayP99: Math.max(0, generatorDelay.percentile(99) / 1e6 - 10),
  };
  logStep(step, capacityPerSecond);
  // Let what is still queued drain before the next step.
  await sleep(quick ? 500 : 3_000);
  return step;
}

function logStep(step: Step, capacityPerSecond: number): void {
  const s = summary(step.outcomes);
  const { live, cached, ready } = step.probes;
  log(
    `  goodput ${s.goodput.toFixed(0)}/s (${(s.goodput / capacityPerSecond).toFixed(2)} of capacity), ` +
      `refused ${s.refused}, failed ${s.failed}, unanswered ${s.unanswered}, answers p99 ${s.answer_p99.toFixed(0)} ms, ` +
      `refusals p99 ${s.refusal_p99.toFixed(1)} ms; live p99 ${percentile(live.answerMs, 0.99).toFixed(1)} ms, ` +
      `cached p99 ${percentile(cached.answerMs, 0.99).toFixed(1)} ms, ready ${ready.answered}/${ready.sent}, limit ${step.limit}, ` +
      `refusals server side p50/p99 ≤ ${step.serverRefusal?.p50 ?? '–'}/${step.serverRefusal?.p99 ?? '–'} ms, ` +
      `cores: API ${step.cores.api.toFixed(2)}, Elasticsearch ${step.cores.es?.toFixed(2) ?? '–'}, generator ${step.cores.generator.toFixed(2)}; loop delay: API p99 ${step.apiDelay?.p99.toFixed(0) ?? '–'} ms, max ${step.apiDelay?.max.toFixed(0) ?? '–'} ms, generator ${step.generatorDelayP99.toFixed(0)} ms`,
  );
}

/** A refusal's CPU alone: one slot, held by a search the proxy slows to a minute; every other search refused. */
async function measureRefusalCost({
  fixture,
  build,
  alias,
  searches,
  options,
}: OverloadBench): Promise<RefusalCost> {
  log(`a refusal's CPU: one slot held, a closed loop of 16 refused (load ${load1()})`);
  const proxy = await startTcpProxy(targetOf(fixture.es.url.split(',')[0]!));
  const shedding = await fixture.startApi({
    build,
    alias,
    logLevel: 'info',
    env: {
      ES_URL: proxy.url,
      ES_REQUEST_TIMEOUT_MS: '120000',
      ADMISSION_MAX_IN_FLIGHT: '1',
      ADMISSION_TARGET_MS: '500',
      // (The API before issue 57 read these instead.)
      ADMISSION_MAX_WAIT_MS: '0',
    },
  });
  try {
    const { holding } = await holdTheOneSlot(proxy, shedding.url, searches);
    const cpuBefore = (await preciseCpuSeconds(shedding.pid)).process;
    const refusals = await runClosedLoop({
      bases: [shedding.url],
      paths: searches.take(options.quick ? 2_000 : 20_000),
      connections: 16,
      seconds: options.quick ? 2 : 5,
      deadlineMs: DEADLINE_MS,
    });
    const cpuMs = ((await preciseCpuSeconds(shedding.pid)).process - cpuBefore) * 1000;
    const refusalCost = {
      refused: refusals.refused,
      others: refusals.answered + refusals.failed + refusals.unanswered,
      cpuPerRefusalMs: cpuMs / Math.max(1, refusals.refused),
      p50: percentile(refusals.refusalMs, 0.5),
      p99: percentile(refusals.refusalMs, 0.99),
    };
    log(
      `  ${refusalCost.refused} refused (${refusalCost.others} other outcomes): ` +
        `${refusalCost.cpuPerRefusalMs.toFixed(4)} ms CPU a refusal, p50/p99 ${refusalCost.p50.toFixed(2)}/${refusalCost.p99.toFixed(2)} ms`,
    );
    // The held search ends when the proxy cuts its connection (an outage 503 for it), and the instance stops.
    await proxy.close();
    await holding.catch(() => undefined);
    return refusalCost;
  } finally {
    await proxy.close().catch(() => undefined);
    await shedding.stop();
  }
}

/**
 * The instance's one slot taken by a search the proxy holds for a minute (after one slowed to a second, so that
 * admission knows Elasticsearch's latency); resolves once the search is in the proxy, with the held search's answer
 * to come (in an object: a promise resolved to a promise would wait for it).
 */
async function holdTheOneSlot(
  proxy: TcpProxy,
  apiUrl: string,
  searches: SearchSupply,
): Promise<{ holding: Promise<ArrayBuffer> }> {
  proxy.searchDelayMs = 1_000;
  await fetch(`${apiUrl}${searches.take(1)[0]}`).then((r) => r.arrayBuffer());
  proxy.searchDelayMs = 60_000;
  let held = true;
  const holding = fetch(`${apiUrl}${searches.take(1)[0]}`)
    .then((r) => r.arrayBuffer())
    .finally(() => (held = false));
  holding.catch(() => undefined); // awaited by the caller, or left behind by a failure
  // Refused at the door instead (Elasticsearch's recent latency past the target), it never reaches the proxy:
  // a failed run then, not a wait without end.
  while (proxy.searchesInFlight === 0) {
    if (!held) throw new Error("a refusal's CPU: the held search was answered or refused, never held");
    await sleep(10);
  }
  return { holding };
}

/** bench/results/<date>-overload.md (the report) and .json (every figure). */
async function writeResults(
  options: OverloadOptions,
  report: string,
  runs: Run[],
  refusalCost: RefusalCost,
): Promise<void> {
  const date = new Date().toISOString().slice(0, 10);
  const base = options.out ?? join(REPO_ROOT, 'bench/results', `${date}-overload`);
  await writeFile(`${base}.md`, report);
  await writeFile(`${base}.json`, JSON.stringify(resultsJson(runs, refusalCost), null, 2));
  log(`wrote ${base}.md and .json`);
}

function resultsJson(runs: Run[], refusalCost: RefusalCost) {
  return {
    refusal_cost: refusalCost,
    runs: runs.map((run) => ({
      instances: run.instances,
      mix: run.mix,
      capacity_per_second: run.capacityPerSecond,
      closed: run.closed.map((loop) => ({
        connections: loop.connections,
        cpu_per_answer_ms: loop.cpuPerAnswerMs,
        ...summary(loop.outcomes),
      })),
      unloaded: run.unloaded,
      steps: run.steps.map((step) => ({
        factor: step.factor,
        rate: step.rate,
        load: step.load,
        ...summary(step.outcomes),
        goodput_ratio: summary(step.outcomes).goodput / run.capacityPerSecond,
        live_p99: percentile(step.probes.live.answerMs, 0.99),
        cached_p99: percentile(step.probes.cached.answerMs, 0.99),
        ready_ok: step.probes.ready.answered,
        ready_sent: step.probes.ready.sent,
        limit: step.limit,
        server_refusal_ms: step.serverRefusal,
        server_live_ms: step.serverLive,
        cores: step.cores,
        generator_delay_p99_ms: step.generatorDelayP99,
        api_delay_ms: step.apiDelay,
      })),
    })),
  };
}

/** Issue 57's goals on one instance: each met or short, with the figure. */
function goals(run: Run, refusalCost: RefusalCost): string[] {
  const rows: string[] = ['| goal | figure | |', '|---|---:|---|'];
  const row = (goal: string, figure: string, met: boolean) =>
    rows.push(`| ${goal} | ${figure} | ${met ? 'met' : '**short**'} |`);
  for (const loop of run.closed.filter((l) => l.connections <= 64)) {
    const share = loop.outcomes.refused / Math.max(1, loop.outcomes.sent);
    row(
      `closed loop of ${loop.connections}: refusals ≤ 0.1 %`,
      `${(share * 100).toFixed(2)} %`,
      share <= 0.001,
    );
  }
  const step = (factor: number) => run.steps.find((s) => s.factor === factor);
  const ratio = (s: Step) => summary(s.outcomes).goodput / run.capacityPerSecond;
  for (const [factor, floor] of [
    [2, 0.9],
    [5, 0.8],
    [10, 0.7],
  ] as const) {
    const s = step(factor);
    if (s)
      row(`open loop at ${factor}×: goodput ≥ ${floor} of capacity`, ratio(s).toFixed(2), ratio(s) >= floor);
  }
  const ten = step(10);
  if (ten)
    row(
      'at 10×: no request unanswered past its deadline',
      String(ten.outcomes.unanswered),
      ten.outcomes.unanswered === 0,
    );
  const worstServer = Math.max(...run.steps.map((s) => s.serverRefusal?.p99 ?? 0));
  row('refusals p99 ≤ 50 ms server side (all steps)', `≤ ${worstServer} ms`, worstServer <= 50);
  const five = step(5);
  if (five) {
    const live = percentile(five.probes.live.answerMs, 0.99);
    const cached = percentile(five.probes.cached.answerMs, 0.99);
    row(
      'at 5×: /health/live p99 ≤ 50 ms (at the client; server side ≤)',
      `${ms(live)} ms (${five.serverLive?.p99 ?? '–'} ms)`,
      live <= 50,
    );
    row('at 5×: a cached answer p99 ≤ 50 ms', `${ms(cached)} ms`, cached <= 50);
  }
  row(
    "a refusal's CPU ≤ 0.05 ms (measured alone)",
    `${refusalCost.cpuPerRefusalMs.toFixed(4)} ms`,
    refusalCost.cpuPerRefusalMs <= 0.05,
  );
  return rows;
}

function render(
  runs: Run[],
  refusalCost: RefusalCost,
  machine: ReturnType<typeof machineInfo>,
  api: string,
  { count, seconds, quick }: OverloadOptions,
): string {
  const lines = [
    `# Overload: closed loops, and open-loop arrivals at multiples of capacity`,
    '',
    `${new Date().toISOString()}; API: ${api}; ${count} records; ${seconds} s per step; deadline of a ` +
      `client ${DEADLINE_MS / 1000} s; ${JSON.stringify(machine)}`,
    '',
  ];
  for (const run of runs) {
    lines.push(
      `## ${run.instances} instance${run.instances > 1 ? 's' : ''}, searches ${run.mix}`,
      '',
      `Unloaded (1 connection): p50 ${ms(run.unloaded.p50)} ms, p99 ${ms(run.unloaded.p99)} ms (not answered: ${run.unloaded.failed}). ` +
        `Capacity: the closed loop of 16, **${run.capacityPerSecond.toFixed(0)} answers/s**.`,
      '',
      '| closed loop | answers/s | sent | refused | share refused | other errors | answers p50 / p99 ms | API CPU an answer ms |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const loop of run.closed) {
      const s = summary(loop.outcomes);
      lines.push(
        `| ${loop.connections} | ${s.goodput.toFixed(0)} | ${s.sent} | ${s.refused} | ${((s.refused / Math.max(1, s.sent)) * 100).toFixed(2)} % | ` +
          `${s.failed + s.unanswered} | ${ms(s.answer_p50)} / ${ms(s.answer_p99)} | ${loop.cpuPerAnswerMs.toFixed(2)} |`,
      );
    }
    lines.push(
      '',
      '| arrivals | rate/s | goodput/s | of capacity | answers p50 / p99 ms | refused | refusals p50 / p99 ms | server side p50 / p99 ≤ ms | cores: API / ES / generator | other errors | unanswered | /health/live p99 (server ≤) | cached p99 | loop delay p99: API / generator | ready | limit | load |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const step of run.steps) {
      const s = summary(step.outcomes);
      lines.push(
        `| ${step.factor}× | ${step.rate} | ${s.goodput.toFixed(0)} | **${(s.goodput / run.capacityPerSecond).toFixed(2)}** | ` +
          `${ms(s.answer_p50)} / ${ms(s.answer_p99)} | ${s.refused} | ${ms(s.refusal_p50)} / ${ms(s.refusal_p99)} | ` +
          `${step.serverRefusal ? `${step.serverRefusal.p50} / ${step.serverRefusal.p99}` : '–'} | ` +
          `${step.cores.api.toFixed(2)} / ${step.cores.es?.toFixed(2) ?? '–'} / ${step.cores.generator.toFixed(2)} | ` +
          `${s.failed} | ${s.unanswered} | ${ms(percentile(step.probes.live.answerMs, 0.99))} (${step.serverLive?.p99 ?? '–'}) | ` +
          `${ms(percentile(step.probes.cached.answerMs, 0.99))} | ${step.apiDelay === null ? '–' : `${ms(step.apiDelay.p99)} (max ${ms(step.apiDelay.max)})`} / ${ms(step.generatorDelayP99)} | ${step.probes.ready.answered}/${step.probes.ready.sent} | ${step.limit ?? '–'} | ${step.load} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    "## A refusal's CPU, measured alone",
    '',
    `One slot, held by a search the proxy holds back; a closed loop of 16 for ${quick ? 2 : 5} s: ` +
      `${refusalCost.refused} refused (${refusalCost.others} other outcomes), **${refusalCost.cpuPerRefusalMs.toFixed(4)} ms** ` +
      `of the API's CPU a refusal; at the client p50 ${refusalCost.p50.toFixed(2)} ms, p99 ${refusalCost.p99.toFixed(2)} ms.`,
    '',
  );
  const first = runs.find((run) => run.instances === 1);
  if (first) lines.push('## Goals (one instance)', '', ...goals(first, refusalCost), '');
  lines.push(...missGoal(runs));
  lines.push(
    'Latencies are as the load generator saw them (on the same cores): the server side of each is at most that.',
    "The refusals' server side is the APIs' own histogram (ppa_overload_refusal_duration_seconds): the bound of",
    'the bucket p50 and p99 fall in. "cores": CPU seconds a second in the step of the APIs, Elasticsearch and the load generator (this process). "generator delay',
    'p99": how late the load generator\'s own event loop ran in the step (its sends and its clocks were that late).',
    '"other errors" are answers that are neither 2xx nor the overload refusal (the outage 503 after the deadline,',
    'a reset connection); "unanswered": no answer within the client\'s 10 s.',
    '',
  );
  return lines.join('\n');
}

/**
 * Issue 72's goal: where half the searches find nothing (each then asks for its "did you mean"), the closed loop of
 * 16 answers at least 0.8× what it answers when all of them find something.
 */
function missGoal(runs: readonly Run[]): string[] {
  const capacity = (mix: Mix) =>
    runs.find((run) => run.instances === 1 && run.mix === mix)?.capacityPerSecond;
  const found = capacity('found');
  const missed = capacity('half-missed');
  if (found === undefined || missed === undefined) return [];
  const ratio = missed / found;
  return [
    '## Misses (one instance)',
    '',
    '| goal | measured |  |',
    '|---|---:|---|',
    `| capacity with half the searches finding nothing ≥ 0.8× all finding something | ${missed.toFixed(0)} ÷ ${found.toFixed(0)} = **${ratio.toFixed(2)}×** | ${ratio >= 0.8 ? 'met' : 'MISSED'} |`,
    '',
  ];
}
