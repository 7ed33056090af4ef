// reindex/status: what the alias serves, as `ppa-indexer status` reads it from the fake Elasticsearch: the live
// index with its documents and age (on the clock given), every kept generation with the live one marked, the alias's
// own lock and every other lock, expired or not on the cluster's clock; no lock index at all; an alias on an index
// that is not a generation. Then the text a person reads.
import { expect } from 'chai';
import { LOCK_INDEX } from '../../../../indexer/elasticsearch/lock.js';
import { aliasStatus, describeStatus, type AliasStatus } from '../../../../indexer/reindex/status.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';

const [T1, T2] = [1, 2].map((minute) => generationName('ppas', minute)) as [string, string];
const NOW = new Date('2026-01-01T01:02:00.000Z'); // an hour after T2
const CLUSTER_NOW = Date.parse('2026-01-01T01:00:00.000Z');

const lock = (alias: string, owner: string, expiresAt: number) => ({
  alias,
  owner,
  acquired_at: '2026-01-01T00:59:00.000Z',
  expires_at: expiresAt,
});

describe('indexer/reindex/status', () => {
  it('reads the live index, the kept generations and every lock as the cluster’s clock judges them', async () => {
    const es = fakeElasticsearch();
    es.now = () => CLUSTER_NOW;
    addGeneration(es, T1, ['a']);
    addGeneration(es, T2, ['a', 'b'], { live: true });
    es.addIndex(LOCK_INDEX, {
      documents: [
        ['ppas', lock('ppas', 'host-a pid 1', CLUSTER_NOW + 30_000)],
        ['ppas:sync', lock('ppas:sync', 'host-b pid 2', CLUSTER_NOW - 1)],
        ['eu', lock('eu', 'host-c pid 3', CLUSTER_NOW + 1)],
      ],
    });
    const status = await aliasStatus(es.client, 'ppas', NOW);
    expect(status).to.deep.include({
      alias: 'ppas',
      index: T2,
      docs: 2,
      built_at: '2026-01-01T00:02:00.000Z',
      age_seconds: 3600,
    });
    expect(status.kept).to.deep.equal([
      { index: T2, docs: 2, built_at: '2026-01-01T00:02:00.000Z', age_seconds: 3600, live: true },
      { index: T1, docs: 1, built_at: '2026-01-01T00:01:00.000Z', age_seconds: 3660, live: false },
    ]);
    expect(status.lock).to.deep.equal({
      alias: 'ppas',
      owner: 'host-a pid 1',
      acquired_at: '2026-01-01T00:59:00.000Z',
      expires_at: '2026-01-01T01:00:30.000Z',
      expired: false,
    });
    expect(status.locks.map((held) => [held.alias, held.expired])).to.deep.equal([
      ['eu', false],
      ['ppas', false],
      ['ppas:sync', true],
    ]);
  });

  it('reads no lock when no run ever made the lock index, and counts an alias on another kind of index', async () => {
    const es = fakeElasticsearch();
    es.addIndex('hand-made', { documents: [{ slug: 'a' }, { slug: 'b' }, { slug: 'c' }], aliases: ['ppas'] });
    const status = await aliasStatus(es.client, 'ppas', NOW);
    expect(status).to.deep.include({
      index: 'hand-made',
      docs: 3,
      built_at: null,
      age_seconds: null,
      kept: [],
    });
    expect(status).to.deep.include({ lock: null, locks: [] });
    const missing = await aliasStatus(fakeElasticsearch().client, 'ppas', NOW);
    expect(missing).to.deep.include({ index: null, docs: null, kept: [], lock: null });
  });

  it('prints the alias, the kept indices (the live one starred), its lock and what else runs', () => {
    const status: AliasStatus = {
      alias: 'ppas',
      index: T2,
      docs: 2,
      built_at: '2026-01-01T00:02:00.000Z',
      age_seconds: 90,
      kept: [
        { index: T2, docs: 2, built_at: 'x', age_seconds: 90, live: true },
        { index: T1, docs: 1, built_at: 'x', age_seconds: 7200 * 30, live: false },
      ],
      lock: { alias: 'ppas', owner: 'host-a pid 1', acquired_at: 't0', expires_at: 't1', expired: true },
      locks: [
        { alias: 'ppas', owner: 'host-a pid 1', acquired_at: 't0', expires_at: 't1', expired: true },
        { alias: 'ppas:sync', owner: 'host-b pid 2', acquired_at: 't2', expires_at: 't3', expired: false },
        { alias: 'eu', owner: 'host-c pid 3', acquired_at: 't4', expires_at: 't5', expired: true },
      ],
    };
    expect(describeStatus(status).split('\n')).to.deep.equal([
      `alias ppas → ${T2}: 2 documents, built 2026-01-01T00:02:00.000Z (90s ago)`,
      'kept indices (2):',
      `  * ${T2}  2 docs  built 90s ago`,
      `    ${T1}  1 docs  built 3d ago`,
      'lock: held by host-a pid 1 since t0 (expired)',
      'sync running: alias ppas, held by host-b pid 2 since t2',
      'other reindex running: alias eu, held by host-c pid 3 since t4 (expired)',
    ]);
    const empty = describeStatus({ ...status, index: null, kept: [], lock: null, locks: [] });
    expect(empty.split('\n')).to.deep.equal([
      'alias ppas does not exist yet',
      'kept indices (0):',
      'lock: free',
    ]);
  });
});
