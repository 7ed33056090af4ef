// metricNames must find every metric an expression reads, and nothing else: the rules and dashboard tests trust it
// to catch a misspelt name.
import { expect } from 'chai';
import { metricNames } from '../../../support/promql.js';

describe('test support: metricNames (the metrics a PromQL expression reads)', () => {
  it('finds selectors with and without matchers, in functions, aggregations and binary operations', () => {
    expect(
      metricNames(
        'sum by (job, instance) (rate(ppa_http_requests_total{route!~"/health/.*",status=~"5.."}[5m])) / ignoring (le) ppa_up',
      ),
    ).to.have.members(['ppa_http_requests_total', 'ppa_up']);
    expect(
      metricNames(
        'histogram_quantile(0.99, sum(rate(ppa_search_duration_seconds_bucket[5m])) by (le, outcome))',
      ),
    ).to.deep.equal(['ppa_search_duration_seconds_bucket']);
    expect(
      metricNames('job:ppa_slo_error_ratio:rate1h{slo="x"} > 14.4 * 0.001 and on (job) up'),
    ).to.have.members(['job:ppa_slo_error_ratio:rate1h', 'up']);
  });

  it('skips labels, label values, keywords, numbers and durations', () => {
    expect(metricNames('max by (job) (ppa_sync_lag_seconds > bool 30) offset 1e3s')).to.deep.equal([
      'ppa_sync_lag_seconds',
    ]);
    expect(metricNames('a{name="rate(b[5m])"} or c unless d')).to.have.members(['a', 'c', 'd']);
    expect(metricNames('vector(1)')).to.deep.equal([]);
  });
});
