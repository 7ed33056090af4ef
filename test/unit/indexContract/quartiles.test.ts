import { expect } from 'chai';
import { quantileType7, quartiles } from '../../../indexContract/quartiles.js';

// The expected values are numpy.percentile's (its default, linear: type 7), computed once and written here.
describe('indexContract: type-7 quartiles', () => {
  it('matches numpy on even and odd lists, unsorted input and one value', () => {
    expect(quartiles([1, 2, 3, 4])).to.deep.equal({ q1: 1.75, q3: 3.25 });
    expect(quartiles([7, 15, 36, 39, 40, 41])).to.deep.equal({ q1: 20.25, q3: 39.75 });
    const { q1, q3 } = quartiles([0.05, 0.3, 0.11, 0.09, 0.12, 0.2, 0.07]);
    expect(q1).to.be.closeTo(0.08, 1e-12);
    expect(q3).to.be.closeTo(0.16, 1e-12);
    expect(quartiles([5])).to.deep.equal({ q1: 5, q3: 5 });
  });

  it('gives the extremes at p = 0 and 1 and refuses an empty list or p outside [0, 1]', () => {
    expect(quantileType7([3, 1, 2], 0)).to.equal(1);
    expect(quantileType7([3, 1, 2], 1)).to.equal(3);
    expect(quantileType7([3, 1, 2], 0.5)).to.equal(2);
    expect(() => quantileType7([], 0.5)).to.throw(/at least one/);
    expect(() => quantileType7([1], 1.5)).to.throw(/p must be/);
  });

  it('does not reorder the list it is given', () => {
    const values = [3, 1, 2];
    quartiles(values);
    expect(values).to.deep.equal([3, 1, 2]);
  });
});
