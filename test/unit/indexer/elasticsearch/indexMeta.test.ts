// elasticsearch/indexMeta: a generation's _meta read and updated without losing what it holds: the high-water
// mark sync reads on from (refused, with the way on, for an index built from a file), the removal guard's state
// set and cleared, and a sync run's end (mark, runs, and the data version moved only after a refresh, only when
// documents changed). Over the fake Elasticsearch.
import { expect } from 'chai';
import {
  readHighWaterMark,
  readIndexMeta,
  recordSyncGuard,
  recordSyncRun,
} from '../../../../indexer/elasticsearch/indexMeta.js';
import { IndexerError } from '../../../../indexer/errors.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';

const MARK = '2026-01-01T00:00:00.000000Z';
const guard = {
  since: '2026-01-02T00:00:00Z',
  removals: 40,
  live: 100,
  max_removed: '5%',
  detail: 'too many',
};

function withMeta(meta: Record<string, unknown>) {
  const es = fakeElasticsearch();
  es.addIndex('ppas-1', { meta });
  return es;
}

describe('indexer/elasticsearch/indexMeta', () => {
  it('reads an index’s _meta, and an empty one when its mapping has none', async () => {
    expect(await readIndexMeta(withMeta({ records: 3 }).client, 'ppas-1')).to.deep.equal({ records: 3 });
    const es = fakeElasticsearch();
    es.addIndex('bare');
    expect(await readIndexMeta(es.client, 'bare')).to.deep.equal({});
  });

  it('gives the mark, the runs so far (0 when none) and a held guard', async () => {
    expect(await readHighWaterMark(withMeta({ high_water_mark: MARK }).client, 'ppas-1')).to.deep.equal({
      mark: MARK,
      runs: 0,
      fences: null,
    });
    const fences = {
      methodology_version: 1,
      computed_at: '2026-01-01T00:00:00Z',
      groups: [{ technology: 'wind', currency: 'EUR', count: 3, q1: null, q3: null, fence: null }],
    };
    const es = withMeta({ high_water_mark: MARK, sync_runs: 7, sync_guard: guard, flag_fences: fences });
    expect(await readHighWaterMark(es.client, 'ppas-1')).to.deep.equal({
      mark: MARK,
      runs: 7,
      syncGuard: guard,
      fences,
    });
  });

  it('refuses to sync an index built from a file, saying to reindex from PostgreSQL first', async () => {
    let error: unknown;
    await readHighWaterMark(withMeta({ records: 3 }).client, 'ppas-1').catch(
      (caught: unknown) => (error = caught),
    );
    expect(error).to.be.instanceOf(IndexerError);
    expect(String(error)).to.match(/index ppas-1 has no high-water mark.*reindex --source postgres/);
  });

  it('sets and clears the guard’s state, keeping the rest of _meta', async () => {
    const es = withMeta({ high_water_mark: MARK, records: 3 });
    await recordSyncGuard(es.client, 'ppas-1', guard);
    expect(es.indices.get('ppas-1')!.mappings._meta).to.deep.equal({
      high_water_mark: MARK,
      records: 3,
      sync_guard: guard,
    });
    await recordSyncGuard(es.client, 'ppas-1', null);
    expect(es.indices.get('ppas-1')!.mappings._meta).to.deep.equal({ high_water_mark: MARK, records: 3 });
  });

  it('ends a run that changed documents: refreshed first, then mark, runs and data version moved on', async () => {
    const es = withMeta({ high_water_mark: MARK, sync_runs: 2, data_version: 4, records: 3 });
    await recordSyncRun(es.client, 'ppas-1', { mark: '2026-01-03T00:00:00.000000Z', runs: 3, changed: true });
    expect(es.indices.get('ppas-1')!.mappings._meta).to.deep.equal({
      high_water_mark: '2026-01-03T00:00:00.000000Z',
      sync_runs: 3,
      data_version: 5,
      records: 3,
    });
    // An API instance that sees the new data version must find the changed documents searchable already.
    const order = es.requests().filter((request) => /_refresh$|PUT .*_mapping$/.test(request));
    expect(order.map((request) => request.split(' ')[1])).to.deep.equal([
      '/ppas-1/_refresh',
      '/ppas-1/_mapping',
    ]);
  });

  it('ends a run that changed nothing without a refresh and without a new data version', async () => {
    const es = withMeta({ high_water_mark: MARK, data_version: 4 });
    await recordSyncRun(es.client, 'ppas-1', {
      mark: '2026-01-03T00:00:00.000000Z',
      runs: 1,
      changed: false,
    });
    expect(es.indices.get('ppas-1')!.mappings._meta).to.deep.include({ data_version: 4, sync_runs: 1 });
    expect(es.indices.get('ppas-1')!.refreshes).to.equal(1); // the one addIndex made
    // A change without a mark (a failed run's batches) moves the version on and leaves the mark and the runs.
    await recordSyncRun(es.client, 'ppas-1', { changed: true });
    expect(es.indices.get('ppas-1')!.mappings._meta).to.deep.include({
      data_version: 5,
      sync_runs: 1,
      high_water_mark: '2026-01-03T00:00:00.000000Z',
    });
  });
});
