// Ranges of slugs that cut a walk of a generation into pages.
import { expect } from 'chai';
import { inRange, slugRanges } from '../../../../indexer/elasticsearch/slugRanges.js';

describe('indexer/elasticsearch/slugRanges', () => {
  it('makes the ranges between ascending bounds, open at both ends, and none cut without bounds', () => {
    expect(slugRanges([])).to.deep.equal([{}]);
    expect(slugRanges(['d', 'm'])).to.deep.equal([{ lt: 'd' }, { gte: 'd', lt: 'm' }, { gte: 'm' }]);
  });

  it('puts every slug in exactly one range', () => {
    const ranges = slugRanges(['d', 'm']);
    for (const slug of ['a', 'd', 'd-1', 'l-z', 'm', 'zz']) {
      expect(
        ranges.filter((range) => inRange(slug, range)),
        slug,
      ).to.have.length(1);
    }
    expect(inRange('d', { lt: 'd' })).to.equal(false);
    expect(inRange('d', { gte: 'd' })).to.equal(true);
  });
});
