// `npm run bench -- floor`: how far under the API the floor is. The no-repeat mix of bench/scale.ts (16
// connections; `Accept-Encoding: gzip` on every side, Elasticsearch's request cache off, 4 rounds in rotating
// order, each on a fresh request set) against four sides on the same shared cores:
//   api   — the API as deployed (response cache on: it holds nothing a no-repeat mix asks again);
//   pure  — bench/perf/floorServer.ts in `pure` mode: the API's own app (createApp) with its layers left out (no
//           rate-limit store, log, response cache, admission or metrics): api − pure is what those layers cost;
//   proxy — floorServer.ts in `proxy` mode: parse and build, then Elasticsearch's answer passed on untouched;
//   raw   — Elasticsearch `_search` with the very bodies the API sends.
// The three Node sides run compiled (tsc, as the image runs the API): under tsx, every closure pays esbuild's
// __name helper on each call, which inflates closure-heavy code. Writes bench/results/<date>-floor.md unless --no-write.
// --replay: Elasticsearch's answers recorded once and replayed (bench/perf/replay.ts), api and pure only, the same
// set every round: the API's own CPU per request against pure's, at about ±0.02 ms (<date>-floor-replay.md).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { positiveInteger } from '../indexer/optionParsers.js';
import { withFixture, type BenchFixture } from './fixture.js';
import { apiModeOf, defineSuite, type SharedOptions } from './suite.js';
import { compileBeside, REPO_ROOT } from './perf/apiProcess.js';
import { setRequestCache, type EsTarget } from './perf/rawElasticsearch.js';
import type { GeneratedCorpus } from './perf/loadCorpus.js';
import { apiTarget, quantile, rawTarget, runLoad, type LoadTarget } from './perf/load.js';
import { machineInfo, processCpuSeconds } from './perf/machine.js';
import { buildDistinctMix, type MixRequest } from './perf/requestMix.js';

interface FloorOptions extends SharedOptions {
  rounds: number;
  cacheMb: string;
  replay?: boolean;
  connections?: number;
}

export default defineSuite<FloorOptions>({
  name: 'floor',
  module: import.meta.url,
  summary: "the API against the floor under it (--replay: Elasticsearch's answers recorded and replayed)",
  count: 100_000,
  seed: 20261122,
  writes: true,
  options: (command) =>
    command
      .option('--rounds <n>', 'measured rounds (each side once per round)', positiveInteger, 4)
      .option('--cache-mb <n>', "the API's RESPONSE_CACHE_MB", '32')
      .option(
        '--replay',
        "Elasticsearch's answers recorded once and replayed (bench/perf/replay.ts): the API's own CPU against pure's only",
      )
      .option('--connections <n>', 'connections of the closed loops', positiveInteger),
  // One connection: on a machine busy with other work, more would meet the admission control's refusals.
  quick: { count: 300, args: ['--rounds', '1', '--connections', '1'] },
  run: floor,
});

const ALL_SIDES = ['api', 'pure', 'proxy', 'raw'] as const;
type FloorSide = (typeof ALL_SIDES)[number];
// A 1 MiB response cache holds a few hundred answers; the replayed set cycles through thousands, so every
// request misses it (stored and evicted, as under a no-repeat mix) while the cache's own work is still done.
const REPLAY_CACHE_MB = '1';
const GZIP = { 'Accept-Encoding': 'gzip' };
const log = (line: string) => process.stderr.write(`${line}\n`);

interface FloorServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function startFloorServer(
  entry: string,
  mode: 'pure' | 'proxy',
  esUrl: string,
  alias: string,
  replay = false,
) {
  // A quick form runs it from its sources (compileBeside leaves a tsx build's sources as they are).
  const node = entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
  const child: ChildProcess = spawn(process.execPath, node, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ES_URL: esUrl,
      ES_INDEX: alias,
      FLOOR_MODE: mode,
      FLOOR_REPLAY: replay ? '1' : '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Its first line names its port; an exit before it is a failure, not a wait without end.
  const port = await new Promise<number>((resolve, reject) => {
    let printed = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const listening = /^listening (\d+)$/m.exec(printed);
      if (listening) resolve(Number(listening[1]));
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the floor server (${mode}) exited on start (${signal ?? code}): ${printed}`)),
    );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  } satisfies FloorServer;
}

async function floor(options: FloorOptions): Promise<void> {
  const plan = floorPlan(options);
  await withFixture('floor', async (fixture) => {
    const bench = await startSides(fixture, options, plan);
    const { warmup, sets } = requestSets(bench);
    const rows = await measureSides(bench, warmup, sets);
    const report = floorReport(bench, rows, warmup.length);
    process.stdout.write(`${report}\n`);
    if (options.write) await writeReport(options, report);
  });
}

/** The sides measured, the connections of the closed loops, the requests of a round. */
interface FloorPlan {
  sides: readonly FloorSide[];
  connections: number;
  perRound: number;
}

function floorPlan(options: FloorOptions): FloorPlan {
  // Replayed answers leave nothing to compare with Elasticsearch: the API against its own app without its layers.
  const sides: readonly FloorSide[] = options.replay ? ['api', 'pure'] : ALL_SIDES;
  // Against Elasticsearch, 8: the room of the API's admission control at its lowest limit on two cores (4 in flight,
  // 4 queued), past which it refuses at once; replayed answers never wait on Elasticsearch, and 16 keep both cores busy.
  const connections = options.connections ?? 16;
  return { sides, connections, perRound: (options.quick ? 10 : 150) * connections };
}

/** What every step shares: the options and plan, the index and its corpus, the Node sides' servers. */
interface FloorBench {
  options: FloorOptions;
  plan: FloorPlan;
  es: EsTarget;
  alias: string;
  corpus: GeneratedCorpus;
  /** The Node sides (proxy absent when replayed); raw is Elasticsearch itself. */
  servers: Record<Exclude<FloorSide, 'raw'>, FloorServer | undefined>;
}

/** The corpus indexed, the API and the floor servers compiled and started. */
async function startSides(
  fixture: BenchFixture,
  options: FloorOptions,
  plan: FloorPlan,
): Promise<FloorBench> {
  const { es } = fixture;
  const { alias, corpus } = await fixture.indexedCorpus({
    count: options.count,
    seed: options.seed,
    sampleSize: Math.min(20_000, Math.max(500, Math.floor(options.count / 4))),
  });
  const build = await fixture.build(apiModeOf(options));
  const floorEntry = await compileBeside(build, 'bench/perf/floorServer.ts');
  const api = await fixture.startApi({
    build: options.replay
      ? { ...build, entry: await compileBeside(build, 'bench/perf/replayApi.ts') }
      : build,
    alias,
    logLevel: 'info',
    env: { RESPONSE_CACHE_MB: options.replay ? REPLAY_CACHE_MB : options.cacheMb },
  });
  const startFloor = async (mode: 'pure' | 'proxy') => {
    const server = await startFloorServer(floorEntry, mode, es.url, alias, options.replay);
    fixture.defer(() => server.stop());
    return server;
  };
  const pure = await startFloor('pure');
  const proxy = options.replay ? undefined : await startFloor('proxy');
  return { options, plan, es, alias, corpus, servers: { api, pure, proxy } };
}

/** The warm-up set and a set per round, all disjoint (replayed: the warm-up set every round). */
function requestSets({ options, plan, corpus }: FloorBench): { warmup: MixRequest[]; sets: MixRequest[][] } {
  // The mix's kinds the floor server answers: everything but the facets and the suggestions (weight 0 anyway).
  const used = new Set<string>();
  const distinct = (size: number, salt: number) => {
    const mix = buildDistinctMix(corpus.sample, { seed: options.seed + salt, size, exclude: used });
    for (const request of mix) used.add(request.apiPath);
    return mix;
  };
  // Replayed: one set, asked (and recorded) in the warm-up, then again every round.
  const warmup = distinct(options.replay || options.quick ? plan.perRound : 3_000, 1);
  const sets = Array.from({ length: options.rounds }, (_, round) =>
    options.replay ? warmup : distinct(plan.perRound, 10 + round),
  );
  return { warmup, sets };
}

function targetOf({ es, alias, servers }: FloorBench, side: FloorSide, requests: MixRequest[]): LoadTarget {
  return side === 'raw'
    ? rawTarget(es, alias, requests, GZIP)
    : apiTarget(servers[side]!.url, requests, GZIP);
}

/** One side's figures in one round. */
interface FloorRow {
  round: number;
  side: FloorSide;
  rps: number;
  p50: number;
  cpuMs?: number;
}

/** Each side warmed, then every round: Elasticsearch's request cache off meanwhile. */
async function measureSides(
  bench: FloorBench,
  warmup: MixRequest[],
  sets: MixRequest[][],
): Promise<FloorRow[]> {
  const { es, alias } = bench;
  await setRequestCache(es, alias, false);
  const rows: FloorRow[] = [];
  try {
    await warmUpSides(bench, warmup);
    for (const [round, set] of sets.entries()) rows.push(...(await measureRound(bench, round, set)));
  } finally {
    await setRequestCache(es, alias, true);
  }
  return rows;
}

async function warmUpSides(bench: FloorBench, warmup: MixRequest[]): Promise<void> {
  const { options, plan } = bench;
  for (const side of plan.sides) {
    // Replayed: a second pass, so that the JIT warms on replays rather than on the recording pass.
    for (let pass = 0; pass < (options.replay ? 2 : 1); pass++) {
      await runLoad(targetOf(bench, side, warmup), {
        connections: plan.connections,
        durationSeconds: 0,
        amount: warmup.length - (warmup.length % plan.connections),
      });
    }
  }
}

/** Each side once over the round's set, in an order rotated by the round; its CPU per request when it is a process. */
async function measureRound(bench: FloorBench, round: number, set: MixRequest[]): Promise<FloorRow[]> {
  const { sides, connections } = bench.plan;
  const rows: FloorRow[] = [];
  const order = [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)];
  for (const side of order) {
    const pid = side === 'raw' ? undefined : bench.servers[side]?.pid;
    const before = pid ? await processCpuSeconds(pid) : 0;
    const result = await runLoad(targetOf(bench, side, set), {
      connections,
      durationSeconds: 0,
      amount: set.length,
    });
    const cpuMs = pid
      ? (((await processCpuSeconds(pid)) - before) * 1000) / Math.max(1, result.ok)
      : undefined;
    if (result.errors > 0)
      throw new Error(`${side}: ${result.errors} failed requests (${JSON.stringify(result.statuses)})`);
    const row = {
      round,
      side,
      rps: result.requestsPerSecond,
      p50: quantile(result.latencies, 0.5),
      ...(cpuMs === undefined ? {} : { cpuMs }),
    };
    rows.push(row);
    log(
      `round ${round + 1} ${side}: ${Math.round(row.rps)} req/s, p50 ${row.p50.toFixed(2)} ms${cpuMs === undefined ? '' : `, ${cpuMs.toFixed(2)} ms CPU per request`} (load ${loadavg()[0]!.toFixed(2)})`,
    );
  }
  return rows;
}

/** The report: how it was run, a row per side (means over the rounds), then every round. */
function floorReport({ options, plan }: FloorBench, rows: FloorRow[], warmupSize: number): string {
  const cpuDigits = options.replay ? 3 : 2;
  const machine = machineInfo();
  const setup = options.replay
    ? `Elasticsearch's answers recorded in the first warm-up pass and replayed after (bench/perf/replay.ts); the API with RESPONSE_CACHE_MB=${REPLAY_CACHE_MB} (every request a miss). ` +
      `\`Accept-Encoding: gzip\`; each side warmed with two passes over a set of ${warmupSize} distinct requests, then ${options.rounds} rounds over the same set, each side once per round in rotating order. Made by \`npm run bench -- floor --replay\`.`
    : `The API with RESPONSE_CACHE_MB=${options.cacheMb}. ` +
      `\`Accept-Encoding: gzip\` on every side; Elasticsearch's request cache off; each side warmed with ${warmupSize} requests; ` +
      `${options.rounds} rounds of ${plan.perRound} distinct requests, each side once per round in rotating order. Made by \`npm run bench -- floor\`.`;
  return [
    `# The floor under the API${options.replay ? ', answers replayed' : ''}: ${options.count.toLocaleString('en')} records, no-repeat mix, ${plan.connections} connections`,
    '',
    `${new Date().toISOString()}; ${machine.cores} cores shared by Elasticsearch, the Node sides and the load generator; Node ${process.version}. ${setup}`,
    '',
    ...sideTable(options, plan.sides, rows),
    '',
    '| round | side | req/s | p50 ms | CPU ms/req |',
    '|---:|---|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.round + 1} | ${row.side} | ${Math.round(row.rps)} | ${row.p50.toFixed(2)} | ${row.cpuMs?.toFixed(cpuDigits) ?? ''} |`,
    ),
    '',
  ].join('\n');
}

/** A row per side: what it does, its means over the rounds, and (against Elasticsearch) its share of raw's req/s. */
function sideTable(options: FloorOptions, sides: readonly FloorSide[], rows: FloorRow[]): string[] {
  const mean = (side: FloorSide, key: 'rps' | 'p50' | 'cpuMs') => {
    const values = rows.filter((row) => row.side === side).map((row) => row[key] ?? 0);
    return values.reduce((sum, value) => sum + value, 0) / values.length;
  };
  const rawRps = mean('raw', 'rps');
  const cpuDigits = options.replay ? 3 : 2;
  return [
    ...(options.replay
      ? ['| side | what it does | req/s | p50 ms | its CPU per request |', '|---|---|---:|---:|---:|']
      : [
          '| side | what it does | req/s | ÷ raw | p50 ms | its CPU per request |',
          '|---|---|---:|---:|---:|---:|',
        ]),
    ...sides.map((side) => {
      const what = {
        api: options.replay
          ? 'the API as deployed, its searches replayed (bench/perf/replayApi.ts)'
          : 'the API as deployed (Koa, middleware, rate limit, log, ETag, cache)',
        pure: "the API's own app (createApp) without its layers: no rate-limit store, log, response cache, admission or metrics",
        proxy: "parse and build, then Elasticsearch's answer passed on (no JSON, no gzip)",
        raw: 'Elasticsearch `_search`, the same bodies',
      }[side];
      const cpu = side === 'raw' ? '' : `${mean(side, 'cpuMs').toFixed(cpuDigits)} ms`;
      // Replayed: no raw side to divide by.
      const ratio = options.replay ? '' : ` ${(mean(side, 'rps') / rawRps).toFixed(2)}× |`;
      return `| ${side} | ${what} | ${Math.round(mean(side, 'rps'))} |${ratio} ${mean(side, 'p50').toFixed(2)} | ${cpu} |`;
    }),
  ];
}

/** bench/results/<date>-floor[-replay].md. */
async function writeReport(options: FloorOptions, report: string): Promise<void> {
  const file = join(
    REPO_ROOT,
    'bench/results',
    `${new Date().toISOString().slice(0, 10)}-floor${options.replay ? '-replay' : ''}.md`,
  );
  await writeFile(file, report);
  log(`wrote ${file}`);
}
