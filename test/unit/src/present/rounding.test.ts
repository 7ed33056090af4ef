// The statistics' rounding: half up, exact, never -0 or NaN.
import { expect } from 'chai';
import { roundMw, roundShare, roundTo, roundUsd } from '../../../../src/present/rounding.js';

describe('present/rounding', () => {
  it('rounds half up without binary artefacts', () => {
    expect(roundTo(1.005, 2)).to.equal(1.01);
    expect(roundTo(2.675, 2)).to.equal(2.68);
    expect(roundMw(10.05)).to.equal(10.1);
    expect(roundShare(0.123449)).to.equal(0.1234);
    expect(roundUsd(4_900_000.5)).to.equal(4_900_001);
  });

  it('gives 0 for what is not a finite number, and never -0', () => {
    expect(roundTo(Number.NaN, 1)).to.equal(0);
    expect(roundTo(Number.POSITIVE_INFINITY, 1)).to.equal(0);
    expect(Object.is(roundTo(-0.01, 1), 0)).to.equal(true);
  });
});
