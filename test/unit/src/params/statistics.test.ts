import { expect } from 'chai';
import { problemsOf, names } from '../../../support/problems.js';
import { parseStatisticsQuery, statisticsQuery } from '../../../../src/params/statistics.js';

describe('api params: statistics', () => {
  it('accepts the filters and nothing else', () => {
    expect(parseStatisticsQuery('')).to.deep.equal({});
    expect(parseStatisticsQuery('technology=wind&q=x&year=2010&risk_features=take_or_pay')).to.deep.equal({
      technology: { chosen: ['wind'], left: [] },
      q: 'x',
      year: { from: 2010, to: 2010 },
      riskFeatures: { chosen: ['take_or_pay'], left: [] },
    });
    expect(names(problemsOf(() => parseStatisticsQuery('page=1&per_page=10&sort=recent')))).to.deep.equal([
      'page',
      'per_page',
      'sort',
    ]);
    expect(names(problemsOf(() => parseStatisticsQuery('sort=')))).to.deep.equal(['sort']);
    expect(
      names(problemsOf(() => parseStatisticsQuery('min_capacity=2&max_capacity=1&year=3000'))),
    ).to.deep.equal(['min_capacity', 'year']);
    expect(Object.keys(statisticsQuery.schema.properties)).to.not.include.members([
      'page',
      'per_page',
      'sort',
    ]);
    expect(statisticsQuery.parameters.map((p) => p.name))
      .to.include('country')
      .and.have.length(9);
  });
});
