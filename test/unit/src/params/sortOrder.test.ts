// The orders a list or an export may ask for, as the contract names them.
import { expect } from 'chai';
import { SORT_ORDERS } from '../../../../src/params/sortOrder.js';

describe('params/sortOrder', () => {
  it('has the contract’s eight orders', () => {
    expect([...SORT_ORDERS].sort()).to.deep.equal(
      [
        'capacity_asc',
        'capacity_desc',
        'flags_desc',
        'name_asc',
        'name_desc',
        'oldest',
        'recent',
        'relevance',
      ].sort(),
    );
  });
});
