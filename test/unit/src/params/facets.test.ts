// `facets`: the five breakdowns, each once, in their own order.
import { expect } from 'chai';
import { FACET_NAMES, FACETS_PARAMETER, toFacetNames } from '../../../../src/params/facets.js';

describe('params/facets', () => {
  it('keeps the named facets in the declared order, each once', () => {
    expect(toFacetNames(['year', 'technology', 'year'])).to.deep.equal(['technology', 'year']);
    expect(toFacetNames([])).to.deep.equal([]);
  });

  it('declares the five names as the only values', () => {
    expect(FACETS_PARAMETER).to.deep.include({ minItems: 1, maxItems: FACET_NAMES.length * 2 });
    expect((FACETS_PARAMETER as unknown as { items: { enum: string[] } }).items.enum).to.deep.equal([
      ...FACET_NAMES,
    ]);
  });
});
