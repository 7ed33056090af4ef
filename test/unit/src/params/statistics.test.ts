import { expect } from 'chai';
import { SearchText } from '../../../../src/matching/queryText.js';
import { problemsOf, names } from '../../../support/problems.js';
import { parseStatisticsQuery, statisticsQuery } from '../../../../src/params/statistics.js';

describe('api params: statistics', () => {
  it('accepts the filters and nothing else', () => {
    expect(parseStatisticsQuery('')).to.deep.equal({ format: 'json' });
    expect(parseStatisticsQuery('technology=wind&q=x&year=2010&risk_features=take_or_pay')).to.deep.equal({
      technology: { chosen: ['wind'], left: [] },
      q: new SearchText('x'),
      year: { from: 2010, to: 2010 },
      riskFeatures: { chosen: ['take_or_pay'], left: [] },
      format: 'json',
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
      .and.have.length(16);
  });

  it('takes a roll-up: one or two dimensions, its sort, limit and format; those alone are errors', () => {
    expect(
      parseStatisticsQuery('group_by=developer,year&group_sort=key_asc&group_limit=5&format=csv'),
    ).to.deep.equal({
      groups: { dimensions: ['developer', 'year'], sort: 'key_asc', limit: 5 },
      format: 'csv',
    });
    expect(parseStatisticsQuery('group_by=offtaker').groups).to.deep.equal({
      dimensions: ['offtaker'],
      sort: 'capacity_desc',
      limit: 20,
    });
    expect(
      names(problemsOf(() => parseStatisticsQuery('group_limit=5&group_sort=key_asc&format=csv'))),
    ).to.deep.equal(['format', 'group_limit', 'group_sort']);
    expect(parseStatisticsQuery('format=json')).to.deep.equal({ format: 'json' });
    for (const bad of [
      'group_by=x',
      'group_by=year,country,tariff',
      'group_by=year,year',
      'group_by=year&group_limit=201',
    ]) {
      expect(names(problemsOf(() => parseStatisticsQuery(bad))), bad).to.have.length(1);
    }
  });
});
