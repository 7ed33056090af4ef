// The shipped composition end to end, as docker-compose.yml wires it: PostgreSQL → `ppa-indexer sync --follow
// --interval 2` → Elasticsearch → two API instances (src/server.ts) with their default configuration (response
// cache 32 MiB, rate limit 60 a minute per client) → the shipped nginx config. A steady load through nginx keeps
// both caches warm on exactly the URLs the test watches. Then, one at a time in the database: unpublish, publish,
// a capacity change, deactivate, hard delete. Each must be served through nginx and by both instances within 10 s
// (docs/record.md, "PostgreSQL"), and at the end the list, the details, the statistics and the facets agree with
// the database. Before the data version (indexContract/dataVersion.ts), every one of these stayed hidden behind
// the caches.
//
// The load comes from many loopback addresses (127.0.3.x), each a client of its own for the rate limit, so the
// default quota holds without a 429 (on Linux all of 127.0.0.0/8 is local).
import { expect } from 'chai';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reindex } from '../../indexer/reindex/reindex.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { CONFIG_VARIABLES } from '../../src/config.js';
import { startCli, type RunningCli } from '../support/indexerCliProcess.js';
import {
  type Answer,
  get,
  localNginxConf,
  type Process,
  requireNginx,
  root,
  spawnCollecting,
  startNginx,
  stop,
  waitFor,
} from '../support/nginx.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { RedisServer } from '../support/redisServer.js';
import { SAMPLE_PATH } from '../support/sampleIndex.js';
import { ES_URL, deleteIndices, freePort, testEsClient, uniqueName } from '../support/services.js';

const FRESHNESS_GOAL_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 127.0.3.1 … 127.0.3.254 in turn: 254 clients of 60 requests a minute each. */
const nextAddress = (() => {
  let next = 0;
  return (): string => `127.0.3.${(next++ % 254) + 1}`;
})();

interface ListBody {
  data: { slug: string; capacity_mw?: number }[];
  meta: { total: number; facets?: Record<string, { value: string; count: number }[]> };
  links: { next: string | null };
}

describe('deploy: freshness through every layer (PostgreSQL → sync → Elasticsearch → 2 cached APIs → nginx)', function () {
  this.timeout(120_000);
  const es = testEsClient();
  const alias = uniqueName('deploy-fresh');
  const sample = readFileSync(SAMPLE_PATH, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as PpaRecord);
  const live = sample.filter((record) => record.published && record.active);
  // One PPA per change, and a new one to publish.
  const [unpublished, edited, deactivated, deleted] = live.slice(-4).map((record) => record.slug) as [
    string,
    string,
    string,
    string,
  ];
  const published = `${uniqueName('fresh-new')}`;
  const watched = [unpublished, edited, deactivated, deleted, published];

  let db: TestDatabase;
  let redis: RedisServer | undefined;
  let sync: RunningCli | undefined;
  const apis: Process[] = [];
  let apiPorts: number[] = [];
  let metricsPorts: number[] = [];
  let nginx: Process | undefined;
  let proxyPort = 0;
  let dir = '';
  let loadRunning = false;
  let load: Promise<void> | undefined;
  const loadStatuses = new Map<number, number>();

  /** Every URL the load keeps warm and the checks read. */
  const urls = {
    detail: (slug: string) => `/api/v1/ppas/${slug}`,
    listed: (slug: string) => `/api/v1/ppas?slug=${slug}`,
    statistics: '/api/v1/ppas/statistics',
    facets: '/api/v1/ppas?per_page=1&facets=technology,country',
    firstPage: '/api/v1/ppas?per_page=100&sort=name_asc',
  };
  const warmUrls = [
    ...watched.flatMap((slug) => [urls.detail(slug), urls.listed(slug)]),
    urls.statistics,
    urls.facets,
    urls.firstPage,
  ];

  /** nginx, then each instance directly: where a change must be seen. */
  const doors = (): { name: string; port: number }[] => [
    { name: 'nginx', port: proxyPort },
    ...apiPorts.map((port, i) => ({ name: `api-${i + 1}`, port })),
  ];
  const ask = (port: number, path: string): Promise<Answer> =>
    get(port, path, { localAddress: nextAddress() });
  const json = <T>(answer: Answer): T => {
    expect(answer.status, answer.body).to.equal(200);
    return JSON.parse(answer.body) as T;
  };

  /** Polls every 100 ms until `seen` holds on nginx (twice in a row: both replicas) and on each instance. */
  async function visibleEverywhere(what: string, seen: (port: number) => Promise<boolean>): Promise<number> {
    const started = Date.now();
    for (;;) {
      const results = await Promise.all(
        doors().flatMap(({ port }) => (port === proxyPort ? [seen(port), seen(port)] : [seen(port)])),
      );
      if (results.every(Boolean)) return Date.now() - started;
      if (Date.now() - started > FRESHNESS_GOAL_MS * 2) {
        throw new Error(
          `${what}: not seen everywhere after ${FRESHNESS_GOAL_MS * 2} ms (${results.join(',')})`,
        );
      }
      await sleep(100);
    }
  }

  const status = async (port: number, slug: string) => (await ask(port, urls.detail(slug))).status;
  const isListed = async (port: number, slug: string) =>
    json<ListBody>(await ask(port, urls.listed(slug))).data.some((item) => item.slug === slug);

  before(async function () {
    this.timeout(180_000);
    const nginxBin = requireNginx(this);
    db = await createTestDatabase({ seed: true });
    await reindex({ client: es, alias, source: db.url });
    sync = startCli(['sync', '--follow', '--alias', alias, '--interval', '2'], { DATABASE_URL: db.url });
    await sync.waitForStderr('following changes');

    redis = await RedisServer.start();
    apiPorts = [await freePort(), await freePort()];
    metricsPorts = [await freePort(), await freePort()];
    proxyPort = await freePort();
    // The instances get docker-compose.yml's variables and nothing else: every other setting at its default.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !(CONFIG_VARIABLES as string[]).includes(name)),
    );
    for (const [i, port] of apiPorts.entries()) {
      apis.push(
        spawnCollecting(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
          ...inherited,
          PORT: String(port),
          HOST: '127.0.0.1',
          ES_URL,
          ES_INDEX: alias,
          REDIS_URL: redis.url,
          TRUST_PROXY_HOPS: '1',
          PUBLIC_BASE_URL: `http://127.0.0.1:${proxyPort}`,
          METRICS_PORT: String(metricsPorts[i]),
          LOG_LEVEL: 'warn',
        }),
      );
    }
    await Promise.all(
      apis.map((api, i) =>
        waitFor(
          `API on port ${apiPorts[i]}`,
          api,
          async () => (await get(apiPorts[i] ?? 0, '/health/ready')).status === 200,
          60_000,
        ),
      ),
    );
    dir = mkdtempSync(join(tmpdir(), 'ppa-deploy-fresh-'));
    chmodSync(dir, 0o755);
    const conf = localNginxConf(
      readFileSync(join(root, 'deploy/nginx/nginx.conf'), 'utf8'),
      proxyPort,
      apiPorts,
    );
    nginx = await startNginx(nginxBin, dir, conf, proxyPort);

    // The steady load: four loops through nginx over the watched URLs, bounded in count; it runs until after().
    loadRunning = true;
    let sent = 0;
    load = Promise.all(
      [0, 1, 2, 3].map(async (loop) => {
        for (let i = loop; loadRunning && sent < 40_000; i += 4) {
          sent += 1;
          const answer = await ask(proxyPort, warmUrls[i % warmUrls.length]!).catch(() => ({ status: 0 }));
          loadStatuses.set(answer.status, (loadStatuses.get(answer.status) ?? 0) + 1);
          await sleep(20);
        }
      }),
    ).then(() => undefined);
    // Warm: every watched URL answered by both replicas at least once (the load alternates them).
    await sleep(3_000);
  });

  after(async function () {
    this.timeout(60_000);
    loadRunning = false;
    await load;
    await stop(nginx, 'SIGQUIT');
    await Promise.all(apis.map((api) => stop(api, 'SIGTERM')));
    if (sync && sync.child.exitCode === null) {
      sync.child.kill('SIGTERM');
      await sync.result;
    }
    await redis?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await deleteIndices(es, alias).catch(() => undefined);
    await db?.drop();
    await es.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') {
      apis.forEach((api, i) => console.log(`      API ${i + 1} log:\n${api.output.slice(-20).join('\n')}`));
    }
  });

  it('serves the watched URLs from both caches under the load (each instance counts hits)', async () => {
    for (const [i, port] of metricsPorts.entries()) {
      const text = (await get(port, '/metrics')).body;
      const hits = Number(/^ppa_response_cache_hits_total (\d+)/m.exec(text)?.[1] ?? 0);
      expect(hits, `api-${i + 1}: cache hits`).to.be.above(10);
    }
    expect(loadStatuses.get(200) ?? 0).to.be.above(50);
  });

  it('unpublish: 404 and gone from the list everywhere within 10 s', async () => {
    expect(await status(proxyPort, unpublished)).to.equal(200);
    await db.query('UPDATE ppas SET published = false WHERE slug = $1', [unpublished]);
    const took = await visibleEverywhere(
      'unpublished',
      async (port) => (await status(port, unpublished)) === 404 && !(await isListed(port, unpublished)),
    );
    expect(took, 'ms until unpublished everywhere').to.be.below(FRESHNESS_GOAL_MS);
  });

  it('publish a new PPA: found everywhere within 10 s', async () => {
    expect(await status(proxyPort, published)).to.equal(404);
    const template = live[0]!;
    const record = {
      ...template,
      slug: published,
      reference_code: published.toUpperCase(),
      project_name: 'Freshly Published Wind Farm',
      updated_at: new Date().toISOString(),
    };
    await db.query('SELECT ppa_upsert_record($1::jsonb)', [JSON.stringify(record)]);
    const took = await visibleEverywhere(
      'published',
      async (port) => (await status(port, published)) === 200 && (await isListed(port, published)),
    );
    expect(took, 'ms until published everywhere').to.be.below(FRESHNESS_GOAL_MS);
  });

  it('a capacity change: served everywhere within 10 s, detail and list', async () => {
    await db.query('UPDATE ppas SET capacity_mw = 777.25 WHERE slug = $1', [edited]);
    const took = await visibleEverywhere('capacity changed', async (port) => {
      const detail = json<{ data: { capacity_mw: number } }>(await ask(port, urls.detail(edited)));
      const list = json<ListBody>(await ask(port, urls.listed(edited)));
      return detail.data.capacity_mw === 777.25 && list.data[0]?.capacity_mw === 777.25;
    });
    expect(took, 'ms until the new capacity everywhere').to.be.below(FRESHNESS_GOAL_MS);
  });

  it('deactivate: gone from the list everywhere within 10 s, the detail still 200', async () => {
    await db.query('UPDATE ppas SET active = false WHERE slug = $1', [deactivated]);
    const took = await visibleEverywhere('deactivated', async (port) => !(await isListed(port, deactivated)));
    expect(took, 'ms until unlisted everywhere').to.be.below(FRESHNESS_GOAL_MS);
    for (const { port } of doors()) expect(await status(port, deactivated)).to.equal(200);
  });

  it('hard delete: 404 everywhere within 10 s (the trigger says "delete": the next sync run reconciles)', async () => {
    await db.query('DELETE FROM ppas WHERE slug = $1', [deleted]);
    const took = await visibleEverywhere(
      'deleted',
      async (port) => (await status(port, deleted)) === 404 && !(await isListed(port, deleted)),
    );
    expect(took, 'ms until deleted everywhere').to.be.below(FRESHNESS_GOAL_MS);
  });

  it('at the end the list, the details, the statistics and the facets agree with the database, everywhere', async () => {
    const { rows } = await db.query<{
      slug: string;
      capacity_mw: number;
      technology: string;
      country: string;
    }>(
      `SELECT slug, (record->>'capacity_mw')::float8 AS capacity_mw, record->>'technology' AS technology,
              record->>'country_code' AS country
         FROM ppa_index_records
        WHERE (record->>'published')::boolean AND (record->>'active')::boolean`,
    );
    const expectedSlugs = rows.map((row) => row.slug).sort();
    const expectedCapacity = Math.round(rows.reduce((sum, row) => sum + row.capacity_mw, 0) * 1000) / 1000;
    const technologyCounts = new Map<string, number>();
    for (const row of rows)
      technologyCounts.set(row.technology, (technologyCounts.get(row.technology) ?? 0) + 1);

    for (const { name, port } of doors()) {
      // The list, every page.
      const slugs: string[] = [];
      for (let page = 1; ; page += 1) {
        const body = json<ListBody>(await ask(port, `${urls.firstPage}&page=${page}`));
        slugs.push(...body.data.map((item) => item.slug));
        if (!body.links.next) break;
      }
      expect(slugs.sort(), `${name}: listed slugs`).to.deep.equal(expectedSlugs);
      // The statistics.
      const statistics = json<{ data: { totals: { ppas: number; capacity_mw: number } } }>(
        await ask(port, urls.statistics),
      );
      expect(statistics.data.totals.ppas, `${name}: statistics total`).to.equal(rows.length);
      expect(statistics.data.totals.capacity_mw, `${name}: total capacity`).to.be.closeTo(
        expectedCapacity,
        0.1,
      );
      // The facets.
      const facets = json<ListBody>(await ask(port, urls.facets));
      expect(facets.meta.total, `${name}: list total`).to.equal(rows.length);
      const technology = new Map(
        facets.meta.facets!.technology!.map((bucket) => [bucket.value, bucket.count]),
      );
      expect(technology, `${name}: technology facet`).to.deep.equal(technologyCounts);
      // The details of the changed PPAs.
      expect(await status(port, unpublished)).to.equal(404);
      expect(await status(port, deleted)).to.equal(404);
      expect(await status(port, published)).to.equal(200);
      expect(await status(port, deactivated)).to.equal(200);
    }
    // The load itself never met an error: 200s and 404s only (the unpublished and deleted details).
    expect([...loadStatuses.keys()].sort()).to.satisfy((codes: number[]) =>
      codes.every((code) => code === 200 || code === 404),
    );
  });
});
