// Every check of /health/ready read from the live state, called directly: what makes the instance unready (the
// cluster, the alias, an index built for a newer API) and what is only reported (the stores, sync, load, an older
// index). test/unit/src/operations/readiness.test.ts checks the operation around it.
import { expect } from 'chai';
import { INDEX_CONTRACT_VERSION } from '../../../../indexContract/contract.js';
import { NotReadyError, readinessChecks } from '../../../../src/liveState/readinessChecks.js';
import type { ZeroResultsLog } from '../../../../src/zeroResults/zeroResultsLog.js';
import { liveStateOf } from '../../../support/liveState.js';
import { servedStateOf } from '../../../support/servedState.js';

const contract = (status: 'ok' | 'reindex_recommended' | 'incompatible') => ({
  status,
  contractVersion: status === 'incompatible' ? INDEX_CONTRACT_VERSION + 1 : INDEX_CONTRACT_VERSION,
  release: '0.4.0',
  missingFields: status === 'reindex_recommended' ? ['group_developer'] : [],
  detail: status === 'ok' ? null : 'the detail',
});

function state(
  ready = { cluster: true, alias: true },
  status: 'ok' | 'reindex_recommended' | 'incompatible' = 'ok',
) {
  return liveStateOf({
    ready: () => Promise.resolve(ready),
    servedState: () => Promise.resolve(servedStateOf({ seq: 7 })),
    indexContract: () => Promise.resolve(contract(status)),
  });
}

const zeroResults = (store: ReturnType<ZeroResultsLog['store']>) =>
  ({ store: () => store }) as unknown as ZeroResultsLog;

describe('liveState/readinessChecks', () => {
  it('reads every check; an older index and a failing Redis of the zero-result log are reported, still ready', async () => {
    const checks = await readinessChecks(
      state(undefined, 'reindex_recommended'),
      undefined,
      zeroResults({
        store: 'memory',
        detail: 'Redis failed (x): counting in memory meanwhile',
        shared: true,
      }),
    );
    expect(checks.index).to.deep.include({
      status: 'reindex_recommended',
      missing_fields: ['group_developer'],
    });
    expect(checks.zero_results).to.deep.equal({
      status: 'degraded',
      store: 'memory',
      detail: 'Redis failed (x): counting in memory meanwhile',
    });
    expect(checks.sync).to.deep.include({ status: 'ok', changes_head: 7 });
    expect(checks.load).to.deep.equal({ status: 'unknown', detail: null });
  });

  it('counting in memory without REDIS_URL is ok; in Redis is ok', async () => {
    const memory = await readinessChecks(
      state(),
      undefined,
      zeroResults({ store: 'memory', detail: 'x', shared: false }),
    );
    expect(memory.zero_results.status).to.equal('ok');
    const redis = await readinessChecks(
      state(),
      undefined,
      zeroResults({ store: 'redis', detail: null, shared: true }),
    );
    expect(redis.zero_results).to.deep.equal({ status: 'ok', store: 'redis', detail: null });
  });

  it('is not ready without the alias or the cluster, or with an index built for a newer API: a 503 with every check', async () => {
    for (const [ready, status] of [
      [{ cluster: true, alias: false }, 'ok'],
      [{ cluster: false, alias: false }, 'ok'],
      [{ cluster: true, alias: true }, 'incompatible'],
    ] as const) {
      const failure = await readinessChecks(state(ready, status), undefined).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(NotReadyError);
      expect((failure as NotReadyError).status).to.equal(503);
      expect((failure as NotReadyError).extensions).to.have.keys([
        'elasticsearch',
        'rate_limit',
        'zero_results',
        'sync',
        'load',
        'index',
      ]);
    }
  });
});
