// Reads a V8 .cpuprofile (node --cpu-prof, or the inspector's Profiler) and says where the time went: self time
// by function, and by package/area (node internals, a node_modules package, the app's own src/ or indexer/).
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileEntry {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Excluding (idle) and (program)/(garbage collector) are kept: GC is a cost worth seeing. */
  functions: ProfileEntry[];
  areas: ProfileEntry[];
}

/** Where a script belongs: `koa`, `@elastic/transport`, `src/`, `node:internal`… */
export function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const app = /\/(src|indexer|bench)\/(.*)$/.exec(url);
  return app ? `${app[1]}/${app[2]!.split('/')[0]}` : url;
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) return url.slice(modules + '/node_modules/'.length);
  const app = /\/((?:src|indexer|bench)\/.*)$/.exec(url);
  return app ? app[1]! : url.replace(/^node:/, '');
}

function ranked(totals: Map<string, number>, totalMs: number, top: number): ProfileEntry[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, ms, share: totalMs > 0 ? ms / totalMs : 0 }));
}

/**
 * Self time by function and by area. `sinceMicros` drops the samples taken before that moment (V8's profile clock
 * is the system's monotonic clock, the one process.hrtime reads, in µs): start-up and warm-up stay out.
 */
export function summariseProfile(profile: CpuProfile, top = 15, sinceMicros = 0): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  // Sample deltas give the real time per sample; hitCount alone assumes a uniform interval.
  if (profile.samples && profile.timeDeltas) {
    let at = profile.startTime;
    profile.samples.forEach((id, index) => {
      const delta = profile.timeDeltas![index] ?? 0;
      at += delta;
      if (at >= sinceMicros) selfMs.set(id, (selfMs.get(id) ?? 0) + delta / 1000);
    });
  } else {
    const interval = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.nodes.length);
    for (const node of profile.nodes) selfMs.set(node.id, (node.hitCount ?? 0) * interval);
  }
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of selfMs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    totalMs += ms;
    const name = url ? `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}` : functionName;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + ms);
  }
  return { totalMs, functions: ranked(functions, totalMs, top), areas: ranked(areas, totalMs, top) };
}

export async function summariseProfileFile(path: string, top = 15, sinceMicros = 0): Promise<ProfileSummary> {
  return summariseProfile(JSON.parse(await readFile(path, 'utf8')) as CpuProfile, top, sinceMicros);
}

/** Now on the profile clock (µs). */
export function profileClockMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export function profileLines(summary: ProfileSummary): string[] {
  const row = (entry: ProfileEntry) =>
    `| ${entry.name.replace(/\|/g, '\\|')} | ${entry.ms.toFixed(0)} | ${(entry.share * 100).toFixed(1)} % |`;
  return [
    `Busy (non-idle) CPU time sampled: ${(summary.totalMs / 1000).toFixed(1)} s.`,
    '',
    '| area (self time) | ms | share |',
    '|---|---:|---:|',
    ...summary.areas.map(row),
    '',
    '| function (self time) | ms | share |',
    '|---|---:|---:|',
    ...summary.functions.map(row),
  ];
}
