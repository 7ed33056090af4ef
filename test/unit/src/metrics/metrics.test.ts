import { expect } from 'chai';
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
