// GET /health/ready: ready (200) while Elasticsearch answers, the alias exists and the live index is not built for
// a newer API; what else it reports (the rate limiter's store, a held-back sync, shedding load, an index an older
// release built) never makes it unready; unready is a 503 problem carrying every check. Never cached, no search,
// query not read. Driven through Koa in-process over a live state whose lookups the test names.
import { expect } from 'chai';
import { INDEX_CONTRACT_VERSION, type ContractReading } from '../../../../indexContract/contract.js';
import type { SearchReadiness, ServedState } from '../../../../src/liveState/lookups.js';
import { readiness } from '../../../../src/operations/readiness.js';
import type { LimiterHealth } from '../../../../src/rateLimit/types.js';
import type { Admission, AdmissionState } from '../../../../src/gateway/admission.js';
import { jsonOf } from '../../../support/koaServer.js';
import { liveStateOf } from '../../../support/liveState.js';
import { servedStateOf } from '../../../support/servedState.js';
import { operationServers } from '../../../support/servedOperations.js';

const CONTRACT_OK: ContractReading = {
  status: 'ok',
  contractVersion: INDEX_CONTRACT_VERSION,
  release: '0.2.0',
  missingFields: [],
  detail: null,
};

interface Situation {
  ready?: SearchReadiness;
  served?: ServedState | Error;
  contract?: ContractReading | null | Error;
  health?: LimiterHealth;
  admission?: Partial<AdmissionState>;
}

const answered =
  <T>(value: T | Error) =>
  () =>
    value instanceof Error ? Promise.reject(value) : Promise.resolve(value);

describe('operations/readiness: GET /health/ready', () => {
  const serve = operationServers([readiness]);

  /** Readiness asked once in `situation` (by default: everything fine, no admission control). */
  async function ask(situation: Situation = {}, path = '/health/ready') {
    const liveState = liveStateOf(
      {
        ready: answered(situation.ready ?? { cluster: true, alias: true }),
        servedState: answered(situation.served ?? servedStateOf({ seq: 42 })),
        indexContract: answered(situation.contract === undefined ? CONTRACT_OK : situation.contract),
      },
      situation.health,
    );
    const admission = situation.admission && ({ state: () => situation.admission } as unknown as Admission);
    const served = await serve({}, { liveState, ...(admission ? { admission } : {}) });
    const answer = await served.get(path);
    expect(served.calls, 'searches made').to.deep.equal([]);
    expect(answer.headers['cache-control']).to.equal('no-store');
    return { status: answer.status, headers: answer.headers, body: jsonOf(answer) };
  }

  it('ready: 200 with every check, never cached, without a search', async () => {
    const { status, body } = await ask();
    expect(status).to.equal(200);
    expect(body).to.deep.equal({
      status: 'ready',
      elasticsearch: { status: 'ok', cluster: true, alias: true, detail: null },
      rate_limit: { status: 'ok', store: 'memory', detail: null },
      zero_results: {
        status: 'ok',
        store: 'memory',
        detail: 'REDIS_URL is not set: this instance counts its own',
      },
      sync: { status: 'ok', high_water_mark: null, changes_head: 42, detail: null },
      load: { status: 'unknown', detail: null },
      index: {
        status: 'ok',
        contract_version: INDEX_CONTRACT_VERSION,
        release: '0.2.0',
        api_contract_version: INDEX_CONTRACT_VERSION,
        missing_fields: [],
        detail: null,
      },
    });
  });

  it('reports a degraded limiter, a held-back sync, shedding and an older index, and stays ready', async () => {
    const held = servedStateOf({ seq: 7 });
    held.syncGuard = {
      since: '2026-11-26T08:00:00.000Z',
      removals: 40,
      live: 100,
      max_removed: '10%',
      detail: 'held',
    };
    const { status, body } = await ask({
      served: held,
      health: { status: 'degraded', store: 'memory', detail: 'redis: connection refused' },
      admission: { shedding: true, limit: 8, inFlight: 8, queued: 3, refused: 12 },
      contract: { ...CONTRACT_OK, status: 'reindex_recommended', missingFields: ['name_prefixes'] },
    });
    expect(status).to.equal(200);
    expect(body.status).to.equal('ready');
    expect(body.rate_limit).to.deep.equal({
      status: 'degraded',
      store: 'memory',
      detail: 'redis: connection refused',
    });
    expect(body.sync).to.include({
      status: 'held',
      removals: 40,
      live: 100,
      max_removed: '10%',
      changes_head: 7,
    });
    expect(body.load).to.include({
      status: 'shedding',
      limit: 8,
      in_flight: 8,
      queued: 3,
      refused_total: 12,
    });
    expect(body.index).to.include({ status: 'reindex_recommended' });
    expect((body.index as { missing_fields: string[] }).missing_fields).to.deep.equal(['name_prefixes']);
  });

  it('says unknown of what it cannot read, and stays ready', async () => {
    const { status, body } = await ask({ served: new Error('timed out'), contract: new Error('timed out') });
    expect(status).to.equal(200);
    expect(body.sync).to.deep.equal({
      status: 'unknown',
      detail: 'the change log and sync state could not be read',
    });
    expect(body.index).to.include({
      status: 'unknown',
      detail: "the live index's mapping could not be read",
    });
  });

  it('unready: a 503 problem with Retry-After, carrying every check, when the alias or the cluster is away', async () => {
    for (const ready of [
      { cluster: true, alias: false, detail: 'alias missing' },
      { cluster: false, alias: false, detail: 'unreachable' },
    ]) {
      const { status, headers, body } = await ask({ ready });
      expect([status, headers['retry-after']], ready.detail).to.deep.equal([503, '5']);
      expect(headers['content-type']).to.equal('application/problem+json');
      expect(body.detail).to.equal(`Elasticsearch: ${ready.detail}.`);
      expect(body.elasticsearch).to.deep.equal({ status: 'down', ...ready });
      expect(body).to.include.all.keys('rate_limit', 'sync', 'load', 'index');
    }
  });

  it('unready when the live index is built for a newer API', async () => {
    const detail = 'built for index contract 3; this API serves 2';
    const { status, body } = await ask({ contract: { ...CONTRACT_OK, status: 'incompatible', detail } });
    expect(status).to.equal(503);
    expect(body.detail).to.equal(`The live index: ${detail}.`);
    expect(body.elasticsearch).to.include({ status: 'ok' });
  });

  it('does not read its query', async () => {
    const { status } = await ask({}, '/health/ready?page=0&zz=1');
    expect(status).to.equal(200);
  });
});
