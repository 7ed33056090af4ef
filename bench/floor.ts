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
import { withFixture } from './fixture.js';
import { apiModeOf, defineSuite, type SharedOptions } from './suite.js';
import { compileBeside, REPO_ROOT } from './perf/apiProcess.js';
import { setRequestCache } from './perf/rawElasticsearch.js';
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
  // Replayed answers leave nothing to compare with Elasticsearch: the API against its own app without its layers.
  const SIDES: readonly FloorSide[] = options.replay ? ['api', 'pure'] : ALL_SIDES;
  // Against Elasticsearch, 8: the room of the API's admission control at its lowest limit on two cores (4 in flight,
  // 4 queued), past which it refuses at once; replayed answers never wait on Elasticsearch, and 16 keep both cores busy.
  const CONNECTIONS = options.connections ?? 16;
  const PER_ROUND = (options.quick ? 10 : 150) * CONNECTIONS;
  await withFixture('floor', async (fixture) => {
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

    // The mix's kinds the floor server answers: everything but the facets and the suggestions (weight 0 anyway).
    const used = new Set<string>();
    const distinct = (size: number, salt: number) => {
      const mix = buildDistinctMix(corpus.sample, { seed: options.seed + salt, size, exclude: used });
      for (const request of mix) used.add(request.apiPath);
      return mix;
    };
    // Replayed: one set, asked (and recorded) in the warm-up, then again every round.
    const warmup = distinct(options.replay || options.quick ? PER_ROUND : 3_000, 1);
    const sets = Array.from({ length: options.rounds }, (_, round) =>
      options.replay ? warmup : distinct(PER_ROUND, 10 + round),
    );
    const pidOf: Record<FloorSide, number | undefined> = {
      api: api.pid,
      pure: pure.pid,
      proxy: proxy?.pid,
      raw: undefined,
    };
    const targetOf = (side: FloorSide, requests: MixRequest[]): LoadTarget =>
      side === 'raw'
        ? rawTarget(es, alias, requests, GZIP)
        : apiTarget({ api, pure, proxy }[side]!.url, requests, GZIP);

    await setRequestCache(es, alias, false);
    const rows: { round: number; side: FloorSide; rps: number; p50: number; cpuMs?: number }[] = [];
    try {
      for (const side of SIDES) {
        // Replayed: a second pass, so that the JIT warms on replays rather than on the recording pass.
        for (let pass = 0; pass < (options.replay ? 2 : 1); pass++) {
          await runLoad(targetOf(side, warmup), {
            connections: CONNECTIONS,
            durationSeconds: 0,
            amount: warmup.length - (warmup.length % CONNECTIONS),
          });
        }
      }
      for (const [round, set] of sets.entries()) {
        const order = [...SIDES.slice(round % SIDES.length), ...SIDES.slice(0, round % SIDES.length)];
        for (const side of order) {
          const pid = pidOf[side];
          const before = pid ? await processCpuSeconds(pid) : 0;
          const result = await runLoad(targetOf(side, set), {
            connections: CONNECTIONS,
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
      }
    } finally {
      await setRequestCache(es, alias, true);
    }

    const mean = (side: FloorSide, key: 'rps' | 'p50' | 'cpuMs') => {
      const values = rows.filter((row) => row.side === side).map((row) => row[key] ?? 0);
      return values.reduce((sum, value) => sum + value, 0) / values.length;
    };
    const rawRps = mean('raw', 'rps');
    const cpuDigits = options.replay ? 3 : 2;
    const table = [
      ...(options.replay
        ? ['| side | what it does | req/s | p50 ms | its CPU per request |', '|---|---|---:|---:|---:|']
        : [
            '| side | what it does | req/s | ÷ raw | p50 ms | its CPU per request |',
            '|---|---|---:|---:|---:|---:|',
          ]),
      ...SIDES.map((side) => {
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
    const machine = machineInfo();
    const setup = options.replay
      ? `Elasticsearch's answers recorded in the first warm-up pass and replayed after (bench/perf/replay.ts); the API with RESPONSE_CACHE_MB=${REPLAY_CACHE_MB} (every request a miss). ` +
        `\`Accept-Encoding: gzip\`; each side warmed with two passes over a set of ${warmup.length} distinct requests, then ${options.rounds} rounds over the same set, each side once per round in rotating order. Made by \`npm run bench -- floor --replay\`.`
      : `The API with RESPONSE_CACHE_MB=${options.cacheMb}. ` +
        `\`Accept-Encoding: gzip\` on every side; Elasticsearch's request cache off; each side warmed with ${warmup.length} requests; ` +
        `${options.rounds} rounds of ${PER_ROUND} distinct requests, each side once per round in rotating order. Made by \`npm run bench -- floor\`.`;
    const report = [
      `# The floor under the API${options.replay ? ', answers replayed' : ''}: ${options.count.toLocaleString('en')} records, no-repeat mix, ${CONNECTIONS} connections`,
      '',
      `${new Date().toISOString()}; ${machine.cores} cores shared by Elasticsearch, the Node sides and the load generator; Node ${process.version}. ${setup}`,
      '',
      ...table,
      '',
      '| round | side | req/s | p50 ms | CPU ms/req |',
      '|---:|---|---:|---:|---:|',
      ...rows.map(
        (row) =>
          `| ${row.round + 1} | ${row.side} | ${Math.round(row.rps)} | ${row.p50.toFixed(2)} | ${row.cpuMs?.toFixed(cpuDigits) ?? ''} |`,
      ),
      '',
    ].join('\n');
    process.stdout.write(`${report}\n`);
    if (options.write) {
      const file = join(
        REPO_ROOT,
        'bench/results',
        `${new Date().toISOString().slice(0, 10)}-floor${options.replay ? '-replay' : ''}.md`,
      );
      await writeFile(file, report);
      log(`wrote ${file}`);
    }
  });
}
