import { expect } from 'chai';
import { parseStatisticsQuery } from '../../../../src/params/statistics.js';
import {
  buildStatisticsSearch,
  TERMS_SIZE,
  WITHOUT_YEAR_KEY,
} from '../../../../src/queries/statisticsSearch.js';

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
      'annual_payment_obligation_usd',
      'guaranteed_amount_usd',
      'with_disclosed_amounts',
      'by_risk_feature',
      'by_tariff',
      'flags_raised',
      'flags_undecidable',
      'flags_unevaluated',
      'live_index',
    ]);
    expect(aggs.by_technology?.terms).to.deep.equal({ field: 'technology', size: TERMS_SIZE });
    // Records without a year: by_year's -1 bucket, not a pass of its own.
    expect(aggs.by_year?.terms).to.deep.equal({
      field: 'financial_close_year',
      size: TERMS_SIZE,
      missing: WITHOUT_YEAR_KEY,
    });
    // q filters without scoring, like every other clause.
    const searched = buildStatisticsSearch(parseStatisticsQuery('q=solar'));
    const clauses = (searched.query?.bool?.filter ?? []) as object[];
    expect(clauses).to.have.length(2);
    expect(searched.query?.bool).to.not.have.property('must');
    // The live index is named even when the filters match nothing.
    expect(aggs.live_index).to.deep.equal({ terms: { field: '_index', size: 1, min_doc_count: 0 } });
  });
});
