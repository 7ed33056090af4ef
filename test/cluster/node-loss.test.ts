// A real 3-node cluster (scripts/elasticsearch.sh, 384 MB heap per node), started once for this file: a
// generation that goes live survives the SIGKILL of any node, and the API keeps answering while one dies.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRecords } from '../../indexer/generate/generateRecords.js';
import { reindex } from '../../indexer/reindex.js';
import { startEsCluster, type EsCluster } from '../support/esCluster.js';
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
    await rm(workDir, { recursive: true, force: true });
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
});
