// Experiment (not committed): p50 of raw bodies at 1 connection, variants interleaved.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import type { PpaRecord } from '../indexContract/record.js';
import { buildMix, facetPairs, type MixRequest } from './perf/mix.js';

const ES = process.env.ES_URL ?? 'http://127.0.0.1:9200';
const alias = process.argv[2] ?? 'exp100k';
const seconds = Number(process.argv[3] ?? 5);
const records: PpaRecord[] = readFileSync('/tmp/exp/100k.ndjson', 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as PpaRecord)
  .filter((record) => record.published && record.active);
const sample = records.filter((_, index) => index % 40 === 0);
const mix = buildMix(sample, { seed: 20261122, size: 1000 });
const { plain, faceted } = facetPairs(mix);
const agent = new Agent({ connections: 1 });

const API = process.env.API_URL;
async function send(req: MixRequest): Promise<number> {
  const started = performance.now();
  if (API) {
    const res = await request(`${API}${req.apiPath}`, { dispatcher: agent });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(String(res.statusCode));
    return performance.now() - started;
  }
  const res = await request(`${ES}/${alias}/${req.esEndpoint}`, {
    method: 'POST',
    dispatcher: agent,
    headers: {
      'content-type':
        req.esEndpoint === '_msearch' ? 'application/x-ndjson' : 'application/json',
    },
    body: req.esBody,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200 || text.includes('"error"')) throw new Error(text.slice(0, 300));
  return performance.now() - started;
}

const variants: Record<string, MixRequest[]> = { plain, faceted };
const extra = process.env.VARIANTS ? (await import(process.env.VARIANTS)).variants(plain, faceted) : {};
Object.assign(variants, extra);
const lat: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const byKind: Record<string, Record<string, number[]>> = {};
import { readFileSync as rf } from 'node:fs';
const apiPid = process.env.API_PID;
const cpu = () => { if (!apiPid) return 0; const f = rf(`/proc/${apiPid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const cpuMs: Record<string, number> = {};
for (let round = 0; round < 4; round++) {
  for (const [name, set] of Object.entries(variants)) {
    const c0 = cpu();
    const until = performance.now() + (seconds * 1000) / 4;
    let i = round * 37;
    while (performance.now() < until) {
      const req = set[i++ % set.length]!;
      const ms = await send(req);
      lat[name]!.push(ms);
      const kind = plain[(i - 1) % plain.length]!.kind;
      ((byKind[name] ??= {})[kind] ??= []).push(ms);
    }
    cpuMs[name] = (cpuMs[name] ?? 0) + cpu() - c0;
  }
}
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
for (const [name, xs] of Object.entries(lat)) {
  const kinds = Object.entries(byKind[name]!)
    .map(([k, v]) => `${k} ${q(v, 0.5).toFixed(2)}`)
    .join(', ');
  console.log(`${name.padEnd(14)} cpu/req ${((cpuMs[name] ?? 0) / xs.length).toFixed(3)} n=${xs.length} p50 ${q(xs, 0.5).toFixed(2)} p90 ${q(xs, 0.9).toFixed(2)} | ${kinds}`);
}
await agent.close();
