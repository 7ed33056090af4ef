// The mix suite's optional profiles (--profile): the API under one more round of the mix (node --cpu-prof in its
// own process) and a second reindex under the inspector in this one.
import { Session } from 'node:inspector/promises';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchFixture } from '../fixture.js';
import { newestProfile, type ApiBuild } from '../perf/apiProcess.js';
import { BENCH_CPU, type CpuSplit } from '../perf/cpuSplit.js';
import { apiTarget, runLoad } from '../perf/load.js';
import type { MixRequest } from '../perf/requestMix.js';
import {
  profileClockMicros,
  summariseProfile,
  summariseProfileFile,
  type CpuProfile,
} from '../perf/profile.js';
import type { CountFigures } from '../perf/summary.js';
import { log, WITHOUT_RESPONSE_CACHE, type CountSettings } from './common.js';

export async function withCpuProfile<T>(work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    return { result, profile: profile as unknown as CpuProfile };
  } finally {
    session.disconnect();
  }
}

/** Optional step: CPU profiles of the API under the mix and of a second reindex. */
export async function profileRun(
  figures: CountFigures,
  options: { fixture: BenchFixture; build: ApiBuild; alias: string; settings: CountSettings },
  mix: MixRequest[],
  reindexAgain: () => Promise<unknown>,
  split: CpuSplit | undefined,
): Promise<void> {
  const { fixture, build, alias, settings } = options;
  const load = { connections: settings.connections };
  const profileDir = await mkdtemp(join(fixture.workDir, 'api-profile-'));
  log(`profiling the API: one mix round (${settings.durationSeconds} s) under node --cpu-prof…`);
  const profiled = await fixture.startApi({
    build,
    env: WITHOUT_RESPONSE_CACHE,
    alias,
    logLevel: settings.logLevel,
    cpuProfileDir: profileDir,
    ...(split ? { cpu: BENCH_CPU } : {}),
  });
  let since = 0;
  try {
    const profiledTarget = apiTarget(profiled.url, mix);
    await runLoad(profiledTarget, { ...load, durationSeconds: settings.warmupSeconds });
    since = profileClockMicros(); // start-up and warm-up stay out of the summary
    await runLoad(profiledTarget, { ...load, durationSeconds: settings.durationSeconds });
  } finally {
    await profiled.stop();
  }
  const file = await newestProfile(profileDir);
  if (file) figures.apiProfile = await summariseProfileFile(file, 15, since);

  log('profiling the indexer: a second reindex under the inspector…');
  const { profile } = await withCpuProfile(reindexAgain);
  figures.indexerProfile = summariseProfile(profile);
  if (split) await split.check();
}
