import { expect } from 'chai';
import { parseStatisticsQuery } from '../../../../src/params/statistics.js';
import { buildStatisticsSearch, TERMS_SIZE } from '../../../../src/search/statisticsSearch.js';

describe('api search: statistics request', () => {
  it('is one size-0 request with the same filters and every aggregation', () => {
    const request = buildStatisticsSearch(parseStatisticsQuery('technology=wind&year=2015'));
    expect(request.size).to.equal(0);
    expect(request.track_total_hits).to.equal(true);
    expect(request.query).to.deep.equal({
      bool: {
        filter: [
          { term: { active: true } },
          { terms: { technology: ['wind'] } },
          { term: { financial_close_year: 2015 } },
        ],
      },
    });
    const aggs = request.aggs ?? {};
    expect(Object.keys(aggs)).to.have.members([
      'capacity_mw',
      'by_technology',
      'by_year',
      'without_year',
      'government_guarantee',
      'take_or_pay',
      'annual_payment_obligation_usd',
      'guaranteed_amount_usd',
      'with_disclosed_amounts',
      'by_risk_feature',
      'by_tariff',
      'live_index',
    ]);
    expect(aggs.by_technology?.terms).to.deep.equal({ field: 'technology', size: TERMS_SIZE });
    expect(aggs.without_year?.missing).to.deep.equal({ field: 'financial_close_year' });
    // The live index is named even when the filters match nothing.
    expect(aggs.live_index).to.deep.equal({
      global: {},
      aggs: { name: { terms: { field: '_index', size: 1 } } },
    });
  });
});
