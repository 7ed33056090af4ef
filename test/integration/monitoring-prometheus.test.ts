// A real Prometheus over two real API replicas: the shipped scrape config (made local) and the generated rules,
// every window and `for:` scaled down by the generator's time scale so that an hour passes in a minute. After some
// traffic Prometheus records the SLO series for both replicas; then Elasticsearch is cut from one of them (a TCP
// proxy between it and the cluster stops listening) and its alert fires, with the availability page.
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startTcpProxy, targetOf, type TcpProxy } from '../../tools/services/tcpProxy.js';
import { ruleFiles } from '../../tools/monitoring/outputs.js';
import { accepts, root, spawnCollecting, stop, waitFor, type Process } from '../support/nginx.js';
import { localPrometheusConfig, requireProgram } from '../support/prometheus.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, ES_URL, freePort, testEsClient, uniqueName } from '../support/services.js';

/** An hour of the shipped rules in a minute: 5m windows are 5 s, a `for: 2m` is 2 s. */
const TIME_SCALE = 1 / 60;

interface Replica {
  api: string;
  /** Prometheus's `instance` label for it. */
  instance: string;
  process: Process;
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

interface Alert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

describe('monitoring: a real Prometheus over two replicas, with the generated rules', function () {
  this.timeout(90_000);
  const client = testEsClient();
  const alias = uniqueName('monitoring');
  const dir = mkdtempSync(join(tmpdir(), 'ppa-prometheus-'));
  const replicas: Replica[] = [];
  let proxy: TcpProxy | undefined;
  let prometheus: Process | undefined;
  let prometheusUrl = '';

  async function startReplica(esUrl: string): Promise<Replica> {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const process = spawnCollecting(globalThis.process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      PATH: globalThis.process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      ES_URL: esUrl,
      ES_INDEX: alias,
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
      // The test drives traffic until the alerts fire (as long as it takes): the rate limit is not what it is about.
      RATE_LIMIT_POINTS: '1000000',
    });
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    await waitFor('the API', process, async () => (await fetch(metrics)).status === 200, 30_000);
    return { api: `http://127.0.0.1:${port}`, instance: `127.0.0.1:${metricsPort}`, process };
  }

  async function query(expr: string): Promise<Sample[]> {
    const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await response.json()) as { status: string; data: { result: Sample[] }; error?: string };
    if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
    return body.data.result;
  }

  async function alerts(): Promise<Alert[]> {
    const body = (await (await fetch(`${prometheusUrl}/api/v1/alerts`)).json()) as {
      data: { alerts: Alert[] };
    };
    return body.data.alerts;
  }

  /** Polls `probe` (while `traffic` runs, if given) until it holds; the last reading in the error otherwise. */
  async function eventually<T>(
    what: string,
    read: () => Promise<T>,
    holds: (value: T) => boolean,
    timeoutMs: number,
    traffic?: () => Promise<unknown>,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: T | undefined;
    while (Date.now() < deadline) {
      await traffic?.();
      last = await read();
      if (holds(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`${what} within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
  }

  // Each request a search of its own: the response cache would answer a repeated one without Elasticsearch.
  let searches = 0;
  const requests = (replica: Replica, count: number) =>
    Promise.all(
      Array.from({ length: count }, () =>
        fetch(
          `${replica.api}/api/v1/ppas?q=solar&per_page=${(++searches % 50) + 1}&page=${Math.ceil(searches / 50)}`,
        ).then((response) => response.status),
      ),
    );

  before(async () => {
    requireProgram('prometheus');
    await indexSample(client, alias);
    // The second replica reaches Elasticsearch through a proxy the test can close.
    proxy = await startTcpProxy(targetOf(ES_URL));
    replicas.push(...(await Promise.all([startReplica(ES_URL), startReplica(proxy.url)])));

    mkdirSync(join(dir, 'rules'));
    for (const file of await ruleFiles({ timeScale: TIME_SCALE })) {
      writeFileSync(join(dir, 'rules', basename(file.path)), file.text);
    }
    const shipped = readFileSync(join(root, 'deploy/prometheus/prometheus.yml'), 'utf8');
    const targets = replicas.map((replica) => replica.instance);
    writeFileSync(join(dir, 'prometheus.yml'), localPrometheusConfig(shipped, targets, '1s'));
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawnCollecting(
      requireProgram('prometheus'),
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      {},
      dir,
    );
    await waitFor(
      'prometheus',
      prometheus,
      async () => (await accepts(port)) && (await fetch(`${prometheusUrl}/-/ready`)).status === 200,
      30_000,
    );
  });

  after(async () => {
    await stop(prometheus, 'SIGTERM');
    await Promise.all(replicas.map((replica) => stop(replica.process, 'SIGTERM')));
    await proxy?.close();
    await deleteIndices(client, alias);
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scrapes both replicas and records every SLO series for each', async () => {
    for (const replica of replicas) expect(await requests(replica, 4)).to.deep.equal([200, 200, 200, 200]);
    const instances = replicas.map((replica) => replica.instance).sort();
    const perInstance = (samples: Sample[]) => samples.map((sample) => sample.metric.instance).sort();
    const up = await eventually(
      'both replicas up',
      () => query('up'),
      (s) => s.length === 2,
      15_000,
    );
    expect(up.map((sample) => sample.value[1])).to.deep.equal(['1', '1']);
    for (const slo of ['availability', 'overload', 'list_latency', 'rate_limit_store']) {
      const events = await eventually(
        `instance:ppa_slo_events:rate5m{slo="${slo}"} for both replicas`,
        () => query(`instance:ppa_slo_events:rate5m{slo="${slo}"}`),
        (samples) => perInstance(samples).join() === instances.join(),
        20_000,
        () => Promise.all(replicas.map((replica) => requests(replica, 2))),
      );
      expect(perInstance(events)).to.deep.equal(instances);
    }
    // Per job: the availability error ratio over the fleet, 0 with every answer a 200.
    const [ratio] = await eventually(
      'job:ppa_slo_error_ratio:rate5m{slo="availability"}',
      () => query('job:ppa_slo_error_ratio:rate5m{slo="availability"}'),
      (samples) => samples.length === 1,
      10_000,
    );
    expect(ratio?.metric).to.include({ job: 'ppa-api', slo: 'availability' });
    expect(Number(ratio?.value[1])).to.equal(0);
    expect((await alerts()).filter((alert) => alert.labels.severity === 'page')).to.deep.equal([]);
  });

  it('fires PpaElasticsearchUnreachable for the replica cut from Elasticsearch, and the availability page', async () => {
    const [healthy, cut] = replicas as [Replica, Replica];
    await proxy!.close();
    const firing = await eventually(
      'the alerts firing',
      alerts,
      (list) =>
        ['PpaElasticsearchUnreachable', 'PpaAvailabilityFastBurn'].every((name) =>
          list.some((alert) => alert.labels.alertname === name && alert.state === 'firing'),
        ),
      30_000,
      // The cut replica answers 503, the other 200: half the fleet's answers fail.
      () => Promise.all([requests(cut, 2), requests(healthy, 2)]),
    );
    const unreachable = firing.filter((alert) => alert.labels.alertname === 'PpaElasticsearchUnreachable');
    expect(unreachable.map((alert) => alert.labels.instance)).to.deep.equal([cut.instance]);
    expect(unreachable[0]?.labels.severity).to.equal('page');
    expect(await requests(cut, 1)).to.deep.equal([503]);
    expect(await requests(healthy, 1)).to.deep.equal([200]);
  });
});
