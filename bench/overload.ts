// `npm run bench -- overload` runs this file: the API past its capacity, with load that arrives as users do
// (bench/perf/openLoad.ts). One API instance as `npm start` runs it (compiled, defaults: ES_REQUEST_TIMEOUT_MS 2000,
// the response cache on, logs written), the rate limit raised out of the way, over generated records, with
// distinct full-text searches that no cache can answer:
//   1. capacity: a closed loop of 16 connections, answers per second;
//   2. an open loop at 1×, 2×, 5× and 10× that capacity, each for --seconds: answers per second (goodput) and its
//      ratio to capacity, p50/p99 of answers and of refusals, requests left without an answer within 10 s; beside
//      it, probes of /health/live, a cached answer and /health/ready at 10 a second each;
//   3. the same with two instances sharing the Elasticsearch, the load split between them as a balancer would.
// `--api-root DIR` runs the API of another checkout (e.g. the commit before a change) for a before/after.
//
//   ES_URL=http://127.0.0.1:9200 npm run bench -- overload                 # writes bench/results/<date>-overload.md
//   ES_URL=… npm run bench -- overload --api-root /tmp/before --out /tmp/overload-before.md
import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { symlink, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { positiveInteger } from '../indexer/optionParsers.js';
import { withFixture } from './fixture.js';
import { REPO_ROOT, type ApiProcess } from './perf/apiProcess.js';
import { machineInfo } from './perf/machine.js';
import { percentile, runClosedLoop, runOpenLoop, type Outcomes } from './perf/openLoad.js';
import type { PpaRecord } from '../indexContract/record.js';
import { Random } from '../tools/generate/random.js';
import { freePort } from '../tools/services/net.js';

const program = new Command()
  .option('--count <n>', 'records generated', positiveInteger, 20_000)
  .option('--seed <n>', 'seed of the records and the searches', positiveInteger, 20261127)
  .option('--seconds <n>', 'seconds of each open-loop step', positiveInteger, 10)
  .option('--factors <list>', 'arrival rates as multiples of capacity', '1,2,5,10')
  .option('--instances <list>', 'API instances per run, comma-separated', '1,2')
  .option('--api-root <dir>', 'run the API of this checkout instead (before/after runs)')
  .option('--quick', 'small and short (a smoke run), nothing written')
  .option('--out <base>', 'results file base name (default bench/results/<date>-overload)')
  .parse();
const options = program.opts<{
  count: number;
  seed: number;
  seconds: number;
  factors: string;
  instances: string;
  apiRoot?: string;
  quick?: boolean;
  out?: string;
}>();
const factors = options.factors.split(',').map(Number);
const instanceCounts = options.instances.split(',').map(Number);
const quick = options.quick === true;
const seconds = quick ? 3 : options.seconds;
const DEADLINE_MS = 10_000;
const PROBE_RATE = 10;

const log = (message: string) => process.stderr.write(`overload: ${message}\n`);
const load1 = () => Number(loadavg()[0]!.toFixed(2));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Distinct full-text searches of one shape (three words of the records' names and places, drawn at random), so that
 * every step of a run asks the same kind of work and none is asked twice.
 */
function distinctSearches(records: PpaRecord[], count: number, seed: number): string[] {
  const words = [
    ...new Set(
      records.flatMap((record) =>
        `${record.project_name} ${record.location}`
          .toLowerCase()
          .split(/[^a-z]+/)
          .filter((word) => word.length >= 4),
      ),
    ),
  ];
  if (words.length ** 3 < count * 10) throw new Error(`only ${words.length} words: raise --count`);
  const random = new Random(seed);
  const paths = new Set<string>();
  while (paths.size < count) {
    const q = [random.pick(words), random.pick(words), random.pick(words)].join(' ');
    paths.add(`/api/v1/ppas?q=${encodeURIComponent(q)}`);
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
}

/** The refusal-duration histogram of every instance, summed: upper bound (s) → count. */
async function refusalBuckets(urls: string[]): Promise<Map<number, number>> {
  const buckets = new Map<number, number>();
  for (const url of urls) {
    const text = await fetch(url)
      .then((response) => response.text())
      .catch(() => '');
    for (const match of text.matchAll(
      /^ppa_overload_refusal_duration_seconds_bucket\{le="([^"]+)"\} (\d+)/gm,
    )) {
      const bound = match[1] === '+Inf' ? Infinity : Number(match[1]);
      buckets.set(bound, (buckets.get(bound) ?? 0) + Number(match[2]));
    }
  }
  return buckets;
}

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
  capacity: Outcomes;
  capacityPerSecond: number;
  unloaded: { p50: number; p99: number; failed: number };
  steps: Step[];
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

await withFixture('overload', async (fixture) => {
  const count = quick ? 2_000 : options.count;
  log(`${count} records: generating and indexing (load ${load1()})…`);
  const { alias, corpus } = await fixture.indexedCorpus({
    count,
    seed: options.seed,
    sampleSize: Math.min(5_000, count),
  });
  const apis: ApiProcess[] = [];
  const stopApis = async () => {
    await Promise.all(apis.splice(0).map((api) => api.stop().catch(() => undefined)));
  };
  const source = options.apiRoot ? resolve(options.apiRoot) : REPO_ROOT;
  if (source !== REPO_ROOT && !existsSync(join(source, 'node_modules'))) {
    await symlink(join(REPO_ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
  }
  const build = await fixture.build('dist', source);
  // Enough distinct searches that none repeats in a run (the response cache could answer a repeat).
  const searches = distinctSearches(corpus.sample, quick ? 8_000 : 60_000, options.seed);
  let cursor = 0;
  const take = (n: number) => {
    const taken = searches.slice(cursor, cursor + n);
    cursor += n;
    if (taken.length < n)
      throw new Error(`only ${searches.length} distinct searches: lower --count or --seconds`);
    return taken;
  };
  const runs: Run[] = [];

  for (const instances of instanceCounts) {
    await stopApis();
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
    const bases = apis.map((api) => api.url);
    cursor = 0; // each run on the same searches (a new API process: an empty response cache)
    // Unloaded latency first, on a quiet instance (after 100 searches to warm it), then a warm-up under load.
    log(`${instances} instance(s): unloaded latency, then warming up (load ${load1()})`);
    await runClosedLoop({ bases, paths: take(100), connections: 1, seconds: 2, deadlineMs: DEADLINE_MS });
    const single = await runClosedLoop({
      bases,
      paths: take(300),
      connections: 1,
      seconds: quick ? 2 : 5,
      deadlineMs: DEADLINE_MS,
    });
    await runClosedLoop({
      bases,
      paths: take(quick ? 300 : 2_000),
      connections: 16,
      seconds: 5,
      deadlineMs: DEADLINE_MS,
    });
    const capacity = await runClosedLoop({
      bases,
      paths: take(quick ? 1_000 : 5_000),
      connections: 16,
      seconds: quick ? 3 : 10,
      deadlineMs: DEADLINE_MS,
    });
    const capacityPerSecond = capacity.answered / capacity.seconds;
    log(
      `${instances} instance(s): capacity ${capacityPerSecond.toFixed(0)}/s (refused ${capacity.refused}, failed ${capacity.failed}); ` +
        `unloaded p50 ${percentile(single.answerMs, 0.5).toFixed(1)} ms`,
    );
    // A cached answer for the probes: asked twice, so it is kept once the cache knows the generation.
    const cachedPath = '/api/v1/ppas?q=solar';
    for (let i = 0; i < 3; i++)
      for (const base of bases) await fetch(`${base}${cachedPath}`).then((r) => r.arrayBuffer());
    const steps: Step[] = [];
    for (const factor of factors) {
      const rate = Math.round(capacityPerSecond * factor);
      const paths = take(Math.ceil(rate * seconds));
      log(`${instances} instance(s): ${factor}× = ${rate}/s for ${seconds} s (load ${load1()})`);
      const probe = (path: string) =>
        runOpenLoop({ bases, paths: [path], ratePerSecond: PROBE_RATE, seconds, deadlineMs: DEADLINE_MS });
      const bucketsBefore = await refusalBuckets(metricsUrls);
      const [outcomes, live, cached, ready] = await Promise.all([
        runOpenLoop({ bases, paths, ratePerSecond: rate, seconds, deadlineMs: DEADLINE_MS }),
        probe('/health/live'),
        probe(cachedPath),
        probe('/health/ready'),
      ]);
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
      };
      steps.push(step);
      const s = summary(outcomes);
      log(
        `  goodput ${s.goodput.toFixed(0)}/s (${(s.goodput / capacityPerSecond).toFixed(2)} of capacity), ` +
          `refused ${s.refused}, failed ${s.failed}, unanswered ${s.unanswered}, answers p99 ${s.answer_p99.toFixed(0)} ms, ` +
          `refusals p99 ${s.refusal_p99.toFixed(1)} ms; live p99 ${percentile(live.answerMs, 0.99).toFixed(1)} ms, ` +
          `cached p99 ${percentile(cached.answerMs, 0.99).toFixed(1)} ms, ready ${ready.answered}/${ready.sent}, limit ${step.limit}, ` +
          `refusals server side p50/p99 ≤ ${step.serverRefusal?.p50 ?? '–'}/${step.serverRefusal?.p99 ?? '–'} ms`,
      );
      // Let what is still queued drain before the next step.
      await sleep(quick ? 500 : 3_000);
    }
    runs.push({
      instances,
      capacity,
      capacityPerSecond,
      unloaded: {
        p50: percentile(single.answerMs, 0.5),
        p99: percentile(single.answerMs, 0.99),
        failed: single.failed + single.refused,
      },
      steps,
    });
  }

  const report = render(runs, await machineInfo(), source === REPO_ROOT ? 'this checkout' : source);
  process.stdout.write(report);
  if (!quick) {
    const date = new Date().toISOString().slice(0, 10);
    const base = options.out ?? join(REPO_ROOT, 'bench/results', `${date}-overload`);
    await writeFile(`${base}.md`, report);
    await writeFile(
      `${base}.json`,
      JSON.stringify(
        runs.map((run) => ({
          instances: run.instances,
          capacity_per_second: run.capacityPerSecond,
          capacity: summary(run.capacity),
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
          })),
        })),
        null,
        2,
      ),
    );
    log(`wrote ${base}.md and .json`);
  }
});

function render(runs: Run[], machine: Awaited<ReturnType<typeof machineInfo>>, api: string): string {
  const ms = (value: number) =>
    Number.isNaN(value) ? '–' : value < 10 ? value.toFixed(1) : value.toFixed(0);
  const lines = [
    `# Overload: open-loop arrivals at multiples of capacity`,
    '',
    `${new Date().toISOString()}; API: ${api}; ${options.count} records; ${seconds} s per step; deadline of a ` +
      `client ${DEADLINE_MS / 1000} s; ${JSON.stringify(machine)}`,
    '',
  ];
  for (const run of runs) {
    lines.push(
      `## ${run.instances} instance${run.instances > 1 ? 's' : ''}`,
      '',
      `Capacity (closed loop, 16 connections): **${run.capacityPerSecond.toFixed(0)} answers/s** ` +
        `(refused ${run.capacity.refused}, failed ${run.capacity.failed}); unloaded (1 connection) p50 ` +
        `${ms(run.unloaded.p50)} ms, p99 ${ms(run.unloaded.p99)} ms (not answered: ${run.unloaded.failed}).`,
      '',
      '| arrivals | rate/s | goodput/s | of capacity | answers p50 / p99 ms | refused | refusals p50 / p99 ms | server side p50 / p99 ≤ ms | other errors | unanswered | /health/live p99 | cached p99 | ready | limit | load |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const step of run.steps) {
      const s = summary(step.outcomes);
      lines.push(
        `| ${step.factor}× | ${step.rate} | ${s.goodput.toFixed(0)} | **${(s.goodput / run.capacityPerSecond).toFixed(2)}** | ` +
          `${ms(s.answer_p50)} / ${ms(s.answer_p99)} | ${s.refused} | ${ms(s.refusal_p50)} / ${ms(s.refusal_p99)} | ` +
          `${step.serverRefusal ? `${step.serverRefusal.p50} / ${step.serverRefusal.p99}` : '–'} | ` +
          `${s.failed} | ${s.unanswered} | ${ms(percentile(step.probes.live.answerMs, 0.99))} | ` +
          `${ms(percentile(step.probes.cached.answerMs, 0.99))} | ${step.probes.ready.answered}/${step.probes.ready.sent} | ${step.limit ?? '–'} | ${step.load} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    'Latencies are as the load generator saw them (on the same cores): the server side of each is at most that.',
    "The refusals' server side is the APIs' own histogram (ppa_overload_refusal_duration_seconds): the bound of",
    'the bucket p50 and p99 fall in.',
    '"other errors" are answers that are neither 2xx nor the overload refusal (the outage 503 after the deadline,',
    'a reset connection); "unanswered": no answer within the client\'s 10 s.',
    '',
  );
  return lines.join('\n');
}
