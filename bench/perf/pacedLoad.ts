// A load spread evenly in time: `connections` keep-alive connections, each sending its next request at its own
// fixed interval (connections ÷ rate), so requests arrive at Elasticsearch as evenly as the API's own requests
// do. autocannon's rate option sends each second's quota as fast as it can and then waits, which lets
// Elasticsearch answer in bursts. Its CPU per request rises with the pause between requests (its threads wake
// and spin for each: docs/performance.md, "Method"), so a bursty raw side would make the API's evenly spaced
// requests look dearer than they are.
import http from 'node:http';
import type { LoadTarget } from './load.js';

export interface PacedResult {
  ok: number;
  errors: number;
  seconds: number;
  /** Wall time of each 2xx answer (ms, from sending to the last byte), sorted. */
  latencies: number[];
}

function send(agent: http.Agent, url: URL, request: LoadTarget['requests'][number]): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: request.method ?? 'GET',
        path: request.path,
        headers: request.headers,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(
      typeof request.body === 'string' || Buffer.isBuffer(request.body) ? request.body : undefined,
    );
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Sends target's requests at `ratePerSecond` over all connections for `durationSeconds`, evenly spaced. */
export async function runEvenlyPaced(
  target: LoadTarget,
  options: { connections: number; ratePerSecond: number; durationSeconds: number },
): Promise<PacedResult> {
  const url = new URL(target.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const interval = (1000 * options.connections) / Math.max(1, options.ratePerSecond);
  const started = performance.now();
  const ends = started + options.durationSeconds * 1000;
  let ok = 0;
  let errors = 0;
  const latencies: number[] = [];
  const spacing = Math.max(1, Math.floor(target.requests.length / options.connections));
  const connection = async (index: number) => {
    // Connections start staggered across one interval, each at its own place in the list.
    let next = started + (interval * index) / options.connections;
    let position = spacing * index;
    while (next < ends) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      const request = target.requests[position++ % target.requests.length]!;
      try {
        const sent = performance.now();
        const status = await send(agent, url, request);
        if (status >= 200 && status < 300) {
          ok++;
          latencies.push(performance.now() - sent);
        } else errors++;
      } catch {
        errors++;
      }
      next += interval;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, index) => connection(index)));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { ok, errors, seconds: (performance.now() - started) / 1000, latencies };
}
