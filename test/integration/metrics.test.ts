// Prometheus metrics (METRICS_PORT) from the real server process: its counters move as requests flow, and the
// metrics port is apart from the API's (the shipped nginx never proxies it; the nginx test shows /metrics refused).
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { useSampleApp } from '../support/sampleApp.js';
import { ES_URL, freePort } from '../support/services.js';

/** The value of one sample line (`name{labels} value`) of the exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.entries(labels).every(([key, value]) =>
      (match[2] ?? '').includes(`${key}="${value}"`),
    );
    if (present) return Number(match[3]);
  }
  return undefined;
}

describe('metrics: GET /metrics on METRICS_PORT', function () {
  const fileStarted = Date.now();
  this.timeout(60_000);
  const { alias } = useSampleApp('metrics'); // indexes the sample under `alias`
  let child: ChildProcess | undefined;
  let api = '';
  let metricsUrl = '';

  before(async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        ES_URL,
        ES_INDEX: alias,
        METRICS_PORT: String(metricsPort),
        RATE_LIMIT_POINTS: '3',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    api = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (
        (await fetch(metricsUrl).then(
          (r) => r.status,
          () => 0,
        )) === 200
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the metrics port did not answer');
  });

  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('counts answers by route template and status, times them and the searches, counts refusals', async () => {
    const before = await (await fetch(metricsUrl)).text();
    const route = { route: '/api/v1/ppas/:slug', status: '404' };
    const refusalsBefore = sample(before, 'ppa_rate_limit_refusals_total') ?? 0;
    for (const path of [
      '/api/v1/ppas/no-such-ppa',
      '/api/v1/ppas/no-such-ppa',
      '/api/v1/ppas',
      '/api/v1/ppas',
    ]) {
      await fetch(`${api}${path}`);
    }
    const after = await (await fetch(metricsUrl)).text();
    expect(sample(after, 'ppa_http_requests_total', { ...route, method: 'GET' })).to.equal(
      (sample(before, 'ppa_http_requests_total', { ...route, method: 'GET' }) ?? 0) + 2,
    );
    expect(sample(after, 'ppa_http_requests_total', { route: '/api/v1/ppas', status: '200' })).to.equal(1);
    expect(sample(after, 'ppa_rate_limit_refusals_total')).to.equal(refusalsBefore + 1); // the 4th of 3
    expect(sample(after, 'ppa_http_request_duration_seconds_count', { route: '/api/v1/ppas' })).to.equal(1);
    // Refused before any route matched: counted, under the route label of unrouted answers.
    expect(sample(after, 'ppa_http_requests_total', { route: 'unmatched', status: '429' })).to.equal(1);
    expect(sample(after, 'ppa_search_duration_seconds_count', { outcome: 'ok' })).to.be.at.least(3);
    expect(sample(after, 'ppa_rate_limit_degraded')).to.equal(0);
    expect(sample(after, 'ppa_elasticsearch_up')).to.equal(1);
    const age = sample(after, 'ppa_index_generation_age_seconds') ?? -1;
    // The index was built by this file's setup: no older than the file's run.
    expect(age).to.be.within(0, Math.ceil((Date.now() - fileStarted) / 1000));
    expect(after).to.contain('ppa_process_resident_memory_bytes');
  });

  it('serves nothing else there, and the API’s port has no /metrics', async () => {
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).to.equal(404);
    expect((await fetch(`${api}/metrics`)).status).to.equal(404);
  });
});
