// `year`: one year as an integer (its type and bounds kept in the OpenAPI document) or a range as a pattern.
import { expect } from 'chai';
import { YEAR_FILTER } from '../../../../src/params/yearFilter.js';
import { parseStatisticsQuery } from '../../../../src/params/statistics.js';
import { names, problemsOf } from '../../../support/problems.js';

describe('params/yearFilter: one year or a range of years', () => {
  it('is anyOf an integer 1900–2100 and a range pattern, in the schema', () => {
    const [integer, range] = (YEAR_FILTER.schema as unknown as { anyOf: Record<string, unknown>[] }).anyOf;
    expect(integer).to.include({ type: 'integer', minimum: 1900, maximum: 2100 });
    expect(range).to.include({ type: 'string' });
    const pattern = new RegExp(String(range?.pattern));
    for (const good of ['2010..2015', '2015..', '..2005', '1900..2100'])
      expect(pattern.test(good), good).to.equal(true);
    for (const bad of ['2015', '..', '1899..', '..2101', '2010...2015', '201..2015'])
      expect(pattern.test(bad), bad).to.equal(false);
  });

  it('reads a year as a range of one, a range with its open ends', () => {
    expect(parseStatisticsQuery('year=2015').year).to.deep.equal({ from: 2015, to: 2015 });
    expect(parseStatisticsQuery('year=2010..2015').year).to.deep.equal({ from: 2010, to: 2015 });
    expect(parseStatisticsQuery('year=..2005').year).to.deep.equal({ to: 2005 });
  });

  it('names year for a year out of bounds, a range backwards, and what is neither', () => {
    expect(problemsOf(() => parseStatisticsQuery('year=1899'))).to.deep.equal([
      { name: 'year', reason: 'must be between 1900 and 2100' },
    ]);
    expect(problemsOf(() => parseStatisticsQuery('year=2015..2010'))).to.deep.equal([
      { name: 'year', reason: 'the range starts after it ends (2015 > 2010)' },
    ]);
    for (const value of ['abc', '2015.5', '..', '1899..']) {
      expect(names(problemsOf(() => parseStatisticsQuery(`year=${value}`))), value).to.deep.equal(['year']);
    }
  });

  it('says the years in words and as one clause', () => {
    expect(YEAR_FILTER.words({ from: 2012, to: 2012 })).to.deep.equal(['year 2012']);
    expect(YEAR_FILTER.words({ from: 2012 })).to.deep.equal(['years 2012..']);
    expect(YEAR_FILTER.clauses?.({ to: 2005 })).to.deep.equal([
      { range: { financial_close_year: { lte: 2005 } } },
    ]);
  });
});
