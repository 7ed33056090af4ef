// A roll-up's composite aggregations: one walk per level, each from where it stopped.
import { expect } from 'chai';
import {
  GROUP_PAGE_SIZE,
  groupAggregations,
  GROUPS_AGGREGATION,
  nextPosition,
  PAIRS_AGGREGATION,
  walksOf,
  type GroupBucket,
} from '../../../../src/queries/groupAggregations.js';

const query = {
  dimensions: ['country', 'developer'] as ('country' | 'developer')[],
  sort: 'capacity_desc' as const,
  limit: 20,
};

describe('queries/groupAggregations: composite walks', () => {
  it('walks the first dimension alone, and a pivot its pairs as well', () => {
    expect([...walksOf({ ...query, dimensions: ['year'] }).entries()]).to.deep.equal([
      [GROUPS_AGGREGATION, ['year']],
    ]);
    expect([...walksOf(query).entries()]).to.deep.equal([
      [GROUPS_AGGREGATION, ['country']],
      [PAIRS_AGGREGATION, ['country', 'developer']],
    ]);
  });

  it('asks each walk under way from its position, on the dimension fields, nulls as a bucket', () => {
    const aggs = groupAggregations(
      query,
      new Map([
        [GROUPS_AGGREGATION, undefined],
        [PAIRS_AGGREGATION, { d0: 'GH', d1: 'Engie' }],
      ]),
    );
    expect(aggs[GROUPS_AGGREGATION]?.composite).to.deep.equal({
      size: GROUP_PAGE_SIZE,
      sources: [{ d0: { terms: { field: 'country_code', missing_bucket: true } } }],
    });
    expect(aggs[PAIRS_AGGREGATION]?.composite).to.deep.include({ after: { d0: 'GH', d1: 'Engie' } });
    expect(aggs[PAIRS_AGGREGATION]?.composite?.sources).to.deep.equal([
      { d0: { terms: { field: 'country_code', missing_bucket: true } } },
      { d1: { terms: { field: 'group_developer', missing_bucket: true } } },
    ]);
    expect(Object.keys(aggs[GROUPS_AGGREGATION]?.aggs ?? {})).to.deep.equal([
      'capacity_mw',
      'annual_payment_obligation_usd',
      'guaranteed_amount_usd',
      'with_disclosed_amounts',
    ]);
    // A walk that has ended is not asked again.
    expect(Object.keys(groupAggregations(query, new Map([[PAIRS_AGGREGATION, undefined]])))).to.deep.equal([
      PAIRS_AGGREGATION,
    ]);
  });

  it('goes on after a full page, and stops after a short one', () => {
    const bucket = {} as GroupBucket;
    expect(nextPosition({ buckets: [bucket], after_key: { d0: 'x' } })).to.equal(undefined);
    const full = Array.from({ length: GROUP_PAGE_SIZE }, () => bucket);
    expect(nextPosition({ buckets: full, after_key: { d0: 'x' } })).to.deep.equal({ d0: 'x' });
  });
});
