// npm run test:cluster (not in npm test: 2.6 min at load average 8, 12 at 30, on 2 shared cores). A real 3-node cluster
// (scripts/elasticsearch.sh, 384 MB heap per node), started once for this file: a
// generation that goes live survives the SIGKILL of any node, and the API keeps answering while one dies (with its
// response cache off and at its default size: the cache's alias lookups fail over as searches do).
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { startEsCluster, type EsCluster } from '../support/esCluster.js';
import { indexSample } from '../support/sampleIndex.js';
import { uniqueName } from '../support/services.js';

describe('a 3-node Elasticsearch cluster that loses a node', function () {
  this.timeout(600_000);
  let cluster: EsCluster;
  let workDir: string;

  before(async () => {
    cluster = await startEsCluster(3);
    workDir = await mkdtemp(join(tmpdir(), 'cluster-test-'));
  });
  after(async () => {
    // A start that failed left neither: its own error is the one to read.
    if (workDir) await rm(workDir, { recursive: true, force: true });
    await cluster?.stop();
  });

  describe('a reindexed generation is durable', () => {
    const alias = uniqueName('durable');
    const count = 3000;
    let published: number;

    before(async () => {
      const records = [...generateRecords({ seed: 21, count })];
      published = records.filter((record) => record.published).length;
      const source = join(workDir, 'records.ndjson');
      await writeFile(source, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
      const summary = await reindex({ client: cluster.client, alias, source });
      expect(summary.indexed).to.equal(published);
    });

    const liveCount = async () => (await cluster.client.count({ index: alias })).count;

    it('goes live green with one replica on three data nodes', async () => {
      const settings = await cluster.client.indices.getSettings({ index: alias });
      const [index] = Object.keys(settings);
      expect(settings[index!]?.settings?.index?.number_of_replicas).to.equal('1');
      expect(settings[index!]?.settings?.index?.translog?.durability).to.equal('request');
      const health = await cluster.client.cluster.health({ index: alias });
      expect(health.status).to.equal('green');
    });

    it('SIGKILL of each node in turn, right away, then a restart: the alias counts every document every time', async () => {
      for (const port of cluster.ports) {
        await cluster.kill(port);
        expect(await liveCount(), `with the node on ${port} dead`).to.equal(published);
        await cluster.restart(port);
        await cluster.waitForGreen();
        expect(await liveCount(), `after the node on ${port} came back`).to.equal(published);
      }
    });
  });

  describe('the API keeps answering while a node dies and comes back', () => {
    const alias = uniqueName('node-loss');
    let api: TestApp;
    /** The same API with its response cache on at the default size: the cache's alias lookups fail over too. */
    let cached: TestApp;
    let paths: string[];

    before(async () => {
      const summary = await indexSample(cluster.client, alias);
      const { hits } = await cluster.client.search<{ slug: string }>({
        index: alias,
        size: 5,
        _source: ['slug'],
      });
      const slugs = hits.hits.map((hit) => hit._source!.slug);
      expect(summary.index).to.be.a('string');
      paths = [
        '/api/v1/ppas?q=solar&per_page=5',
        '/api/v1/ppas?technology=wind,hydro&sort=capacity_desc',
        '/api/v1/ppas/statistics',
        '/api/v1/ppas/suggest?q=sol',
        ...slugs.map((slug) => `/api/v1/ppas/${slug}`),
      ];
      // ES_URL lists every node; the deadline stays at its default (ES_REQUEST_TIMEOUT_MS 2000).
      api = await buildTestApp({
        alias,
        esNodes: cluster.urls,
        configOverrides: { logLevel: 'warn', rateLimitPoints: 10_000_000 },
      });
      cached = await buildTestApp({
        alias,
        esNodes: cluster.urls,
        configOverrides: {
          logLevel: 'warn',
          rateLimitPoints: 10_000_000,
          responseCacheBytes: loadConfig({}).responseCacheBytes,
        },
      });
    });
    after(async () => {
      await api?.close();
      await cached?.close();
    });

    interface Answer {
      status: number;
      ms: number;
      at: number;
    }

    /** Concurrent clients asking the mix of paths again and again until stop() (one fetch at a time each). */
    function startLoad(concurrency: number): { stop: () => Promise<Answer[]> } {
      const answers: Answer[] = [];
      let stopped = false;
      const worker = async (offset: number) => {
        for (let i = offset; !stopped; i += concurrency) {
          const started = performance.now();
          let status = 0;
          try {
            // Every other request to the cached instance.
            const app = i % 2 === 0 ? api : cached;
            const response = await fetch(`${app.url}${paths[i % paths.length]}`);
            await response.arrayBuffer();
            status = response.status;
          } catch {
            status = 0; // no answer at all counts as a failure too
          }
          answers.push({ status, ms: performance.now() - started, at: Date.now() });
        }
      };
      const workers = Array.from({ length: concurrency }, (_, offset) => worker(offset));
      return {
        async stop() {
          stopped = true;
          await Promise.all(workers);
          return answers;
        },
      };
    }

    async function primaryNodePort(): Promise<number> {
      const shards = await cluster.client.cat.shards({
        index: alias,
        format: 'json',
        h: 'prirep,node,state',
      });
      const primary = shards.find((shard) => shard.prirep === 'p' && shard.state === 'STARTED');
      return Number(String(primary?.node).replace('node-', ''));
    }

    async function loseNodeUnderLoad(port: number): Promise<void> {
      const load = startLoad(3);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const killedAt = Date.now();
      await cluster.kill(port);
      await new Promise((resolve) => setTimeout(resolve, 4000)); // the load goes on with the node dead
      const restartAt = Date.now();
      await cluster.restart(port);
      await cluster.waitForGreen(); // the cluster heals with nothing done on the API
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const answers = await load.stop();

      const failed = answers.filter((answer) => answer.status !== 200);
      const timeline = failed.map(
        (answer) => `${answer.status} after ${Math.round(answer.ms)} ms at kill+${answer.at - killedAt} ms`,
      );
      const problems = [...api.logs, ...cached.logs].filter((line) => line.level >= 40).slice(0, 4);
      expect(
        failed.length,
        `non-200 of ${answers.length} answers (restart at kill+${restartAt - killedAt} ms): ${timeline.join('; ')}; logged: ${JSON.stringify(problems)}`,
      ).to.equal(0);
      const whileDead = answers.filter((answer) => answer.at > killedAt && answer.at < restartAt);
      expect(whileDead.length, 'answers while the node was dead').to.be.above(20);
      const latencies = answers.map((answer) => answer.ms).sort((a, b) => a - b);
      const p99 = latencies[Math.floor(latencies.length * 0.99)]!;
      expect(p99, `p99 of ${answers.length} answers`).to.be.below(api.config.es.requestTimeoutMs);
      expect((await fetch(`${api.url}/health/ready`)).status).to.equal(200);
      expect(cached.responseCache!.stats().hits, 'hits on the cached instance').to.be.above(0);
    }

    it('SIGKILL of the node holding the primary, mid-load: 0 non-2xx, p99 under the deadline, green again', async () => {
      await loseNodeUnderLoad(await primaryNodePort());
    });

    it('SIGKILL of the first node in ES_URL, mid-load: 0 non-2xx, p99 under the deadline, green again', async () => {
      await loseNodeUnderLoad(cluster.ports[0]!);
    });
  });
});
