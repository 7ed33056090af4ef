// `npx tsx bench/perf/cpuProfileRun.ts --alias <alias> --source <records.ndjson>`: the API (compiled) under
// `node --cpu-prof` with a no-repeat mix at 16 connections (Accept-Encoding: gzip), then where its CPU went (by
// area and by function) and its CPU per answered request. For finding what dominates the API's own work.
import { Command } from 'commander';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { PpaRecord } from '../../indexContract/record.js';
import { buildApi, newestProfile, startApi } from './apiProcess.js';
import { esTargetFromEnv } from './elasticsearch.js';
import { apiTarget, runLoad } from './load.js';
import { processCpuSeconds } from './machine.js';
import { buildDistinctMix } from './mix.js';
import { profileClockMicros, profileLines, summariseProfileFile } from './profile.js';

const options = new Command()
  .requiredOption('--alias <alias>', 'the alias the API reads')
  .requiredOption('--source <file>', 'the NDJSON records behind it (the mix draws from its live records)')
  .option('--requests <n>', 'requests in the measured run', '4000')
  .option('--cache-mb <n>', 'RESPONSE_CACHE_MB', '32')
  .parse()
  .opts<{ alias: string; source: string; requests: string; cacheMb: string }>();

const records: PpaRecord[] = [];
for await (const line of createInterface({ input: createReadStream(options.source) })) {
  if (!line.trim()) continue;
  const record = JSON.parse(line) as PpaRecord & { published?: boolean; active?: boolean };
  if (record.published !== false && record.active !== false) records.push(record);
  if (records.length >= 20_000) break;
}
const es = esTargetFromEnv();
const build = await buildApi('dist');
const dir = await mkdtemp(join(tmpdir(), 'api-cpu-'));
const api = await startApi({
  build,
  alias: options.alias,
  esUrl: es.url,
  logLevel: 'info',
  cpuProfileDir: dir,
  env: { RESPONSE_CACHE_MB: options.cacheMb },
});
const size = Number(options.requests);
const mix = buildDistinctMix(records, { seed: 7, size: size + 800 });
try {
  const headers = { 'Accept-Encoding': 'gzip' };
  await runLoad(apiTarget(api.url, mix.slice(size), headers), {
    connections: 16,
    durationSeconds: 0,
    amount: 800,
  });
  const since = profileClockMicros();
  const before = await processCpuSeconds(api.pid);
  const result = await runLoad(apiTarget(api.url, mix.slice(0, size), headers), {
    connections: 16,
    durationSeconds: 0,
    amount: size - (size % 16),
  });
  const cpu = (await processCpuSeconds(api.pid)) - before;
  process.stdout.write(
    `${result.ok} ok, ${result.errors} errors, ${Math.round(result.requestsPerSecond)} req/s; API CPU ` +
      `${((cpu * 1000) / result.ok).toFixed(2)} ms per request; load ${loadavg()[0]!.toFixed(2)}\n`,
  );
  await api.stop();
  const file = await newestProfile(dir);
  if (file) process.stdout.write(`${profileLines(await summariseProfileFile(file, 25, since)).join('\n')}\n`);
} finally {
  await api.stop();
  await rm(dir, { recursive: true, force: true });
  await build.cleanup();
}
