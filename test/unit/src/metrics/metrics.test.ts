import { expect } from 'chai';

/** How long ago the generation of 'read what is known' was built. */
const AGE_S = 120;
import { SHARED_MACHINE_SLACK_MS } from '../../../support/timing.js';
import type { ContractReading } from '../../../../indexContract/contract.js';
import { indexNameFor } from '../../../../indexContract/indexName.js';
import type { ServedState } from '../../../../src/liveState/lookups.js';
import type { ServedStateWatcher } from '../../../../src/liveState/servedStateWatcher.js';
import { createMetrics, type MetricsSources } from '../../../../src/metrics/metrics.js';

/** The value of ppa_elasticsearch_up in a scrape, or undefined when the scrape has no sample of it. */
async function elasticsearchUp(
  clusterAnswers: MetricsSources['clusterAnswers'],
): Promise<number | undefined> {
  const { registry } = createMetrics({ liveIndex: () => Promise.resolve(null), clusterAnswers });
  const text = await registry.getSingleMetricAsString('ppa_elasticsearch_up');
  const sample = /^ppa_elasticsearch_up (\S+)$/m.exec(text);
  return sample ? Number(sample[1]) : undefined;
}

describe('metrics: ppa_elasticsearch_up', () => {
  it('is 1 while the cluster answers the scrape’s lookup, 0 when it does not or the lookup fails', async () => {
    expect(await elasticsearchUp(() => Promise.resolve(true))).to.equal(1);
    expect(await elasticsearchUp(() => Promise.resolve(false))).to.equal(0);
    expect(await elasticsearchUp(() => Promise.reject(new Error('refused')))).to.equal(0);
  });

  it('asks at every scrape, not once', async () => {
    let answers = true;
    const { registry } = createMetrics({
      liveIndex: () => Promise.resolve(null),
      clusterAnswers: () => Promise.resolve(answers),
    });
    expect(await registry.getSingleMetricAsString('ppa_elasticsearch_up')).to.match(
      /^ppa_elasticsearch_up 1$/m,
    );
    answers = false;
    expect(await registry.getSingleMetricAsString('ppa_elasticsearch_up')).to.match(
      /^ppa_elasticsearch_up 0$/m,
    );
  });
});

describe('metrics: the gauges read from Elasticsearch at each scrape', () => {
  /** Each named gauge's sample in one scrape (undefined: no sample), with prom-client's text as Prometheus reads it. */
  async function scrape(
    sources: Partial<MetricsSources>,
    served?: () => Promise<ServedState>,
  ): Promise<Record<string, number | undefined>> {
    const metrics = createMetrics({
      liveIndex: () => Promise.resolve(null),
      clusterAnswers: () => Promise.resolve(true),
      ...sources,
    });
    if (served) metrics.observeServedState({ fresh: served } as unknown as ServedStateWatcher);
    const text = await metrics.registry.metrics();
    const samples: Record<string, number | undefined> = {};
    for (const name of GAUGES) {
      const sample = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
      expect(text, name).to.include(`# TYPE ${name} gauge`);
      samples[name] = sample ? Number(sample[1]) : undefined;
    }
    return samples;
  }
  const GAUGES = [
    'ppa_index_generation_age_seconds',
    'ppa_index_contract_version',
    'ppa_reindex_recommended',
    'ppa_sync_guard_holding',
    'ppa_sync_guard_removals',
    'ppa_sync_lag_seconds',
    'ppa_change_lag_seconds',
  ];
  const failing = () => Promise.reject(new Error('connect ECONNREFUSED'));

  it('have no sample while Elasticsearch does not answer (never a 0 that reads as fresh)', async () => {
    const samples = await scrape({ liveIndex: failing, indexContract: failing }, failing);
    expect(samples).to.deep.equal(Object.fromEntries(GAUGES.map((name) => [name, undefined])));
  });

  it('read what is known, and leave out only what is not', async () => {
    const builtAt = new Date(Date.now() - AGE_S * 1000);
    const reading: ContractReading = {
      status: 'reindex_recommended',
      contractVersion: null,
      release: null,
      missingFields: ['x'],
      detail: null,
    };
    const samples = await scrape(
      {
        liveIndex: () => Promise.resolve(indexNameFor('ppas', builtAt)),
        indexContract: () => Promise.resolve(reading),
      },
      // Not synced from PostgreSQL, nothing logged yet, nothing held back.
      () => Promise.resolve({ head: null, syncGuard: null, highWaterMark: null }),
    );
    // Rounded down to a second, and as old as the test's own run on top of it.
    expect(samples.ppa_index_generation_age_seconds).to.be.within(
      AGE_S - 1,
      AGE_S + SHARED_MACHINE_SLACK_MS / 1000,
    );
    expect(samples.ppa_index_contract_version).to.equal(1);
    expect(samples.ppa_reindex_recommended).to.equal(1);
    expect(samples.ppa_sync_guard_holding).to.equal(0);
    expect(samples.ppa_sync_guard_removals).to.equal(0);
    expect(samples.ppa_sync_lag_seconds, 'not synced: no lag to tell').to.equal(undefined);
    expect(samples.ppa_change_lag_seconds, 'before the first change').to.equal(0);
  });

  it('come back at the next scrape once Elasticsearch answers again', async () => {
    let answers = false;
    const metrics = createMetrics({
      liveIndex: () => (answers ? Promise.resolve(indexNameFor('ppas', new Date())) : failing()),
      clusterAnswers: () => Promise.resolve(answers),
    });
    const age = async () =>
      /^ppa_index_generation_age_seconds (\S+)$/m.exec(
        await metrics.registry.getSingleMetricAsString('ppa_index_generation_age_seconds'),
      )?.[1];
    expect(await age()).to.equal(undefined);
    answers = true;
    // Built at the line above: as old as the scrape took, at most.
    expect(Number(await age())).to.be.within(0, SHARED_MACHINE_SLACK_MS / 1000);
    answers = false;
    expect(await age()).to.equal(undefined);
  });
});
