// The ground every other integration test stands on: a real Elasticsearch with our mapping, a real Redis.
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { readFileSync } from 'node:fs';
import { REDIS_URL, deleteIndices, testEsClient, uniqueName } from '../support/services.js';

const mapping = JSON.parse(readFileSync(new URL('../../mappings/ppas.json', import.meta.url), 'utf8'));

describe('stack: real Elasticsearch', () => {
  const client = testEsClient();
  const index = uniqueName('stack-test');

  after(async () => {
    await deleteIndices(client, index);
    await client.close();
  });

  it('answers _cluster/health and names its version', async () => {
    const health = await client.cluster.health();
    expect(health.status).to.be.oneOf(['green', 'yellow']);
    const nodes = await client.nodes.info({ node_id: '_local', filter_path: 'nodes.*.version' });
    const versions = Object.values(nodes.nodes).map((node) => node.version);
    expect(versions).to.have.length(1);
    console.log(`      Elasticsearch version under test: ${versions[0]}`);
    expect(versions[0]).to.match(/^\d+\.\d+\.\d+/);
  });

  it('creates an index from mappings/ppas.json, indexes documents and finds them with a bool query', async () => {
    await client.indices.create({ index, ...mapping });
    await client.bulk({
      refresh: true,
      operations: [
        { index: { _index: index, _id: 'a' } },
        { slug: 'a', technology: 'solar_pv', capacity_mw: 10, active: true, name_folded: 'sao joao solar' },
        { index: { _index: index, _id: 'b' } },
        { slug: 'b', technology: 'wind', capacity_mw: 50, active: true, name_folded: 'kahone wind farm' },
        { index: { _index: index, _id: 'c' } },
        {
          slug: 'c',
          technology: 'solar_pv',
          capacity_mw: 70,
          active: false,
          name_folded: 'north solar park',
        },
      ],
    });
    const result = await client.search<{ slug: string }>({
      index,
      query: {
        bool: {
          must: [{ match: { name_folded: 'solar' } }],
          filter: [{ term: { active: true } }, { term: { technology: 'solar_pv' } }],
        },
      },
    });
    expect(result.hits.hits.map((hit) => hit._source?.slug)).to.deep.equal(['a']);
  });

  it('rejects a field the mapping does not know (dynamic: strict)', async () => {
    let status = 0;
    try {
      await client.index({ index, document: { slug: 'x', surprise: true } });
    } catch (error) {
      status = (error as { meta?: { statusCode?: number } }).meta?.statusCode ?? -1;
    }
    expect(status).to.equal(400);
  });
});

describe('stack: real Redis', () => {
  it('round-trips a key', async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true });
    await redis.connect();
    const key = uniqueName('stack-test');
    try {
      await redis.set(key, 'value', 'EX', 30);
      expect(await redis.get(key)).to.equal('value');
    } finally {
      await redis.del(key);
      redis.disconnect();
    }
  });
});
