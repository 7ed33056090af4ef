import { expect } from 'chai';
import { facetValues, parseFacetValue } from '../../../indexContract/facetValues.js';

describe('indexContract: facet_values keywords', () => {
  it('one keyword per value of each faceted field; none for a missing country or year', () => {
    expect(
      facetValues({
        technology: 'solar_pv',
        tariff: 'energy_only',
        country_code: 'KE',
        financial_close_year: 2019,
        risk_features: ['take_or_pay', 'fx_indexed'],
      }),
    ).to.deep.equal([
      'technology:solar_pv',
      'tariff:energy_only',
      'country:KE',
      'year:2019',
      'risk_features:take_or_pay',
      'risk_features:fx_indexed',
    ]);
    expect(
      facetValues({
        technology: 'wind',
        tariff: 'two_part',
        country_code: null,
        financial_close_year: null,
        risk_features: [],
      }),
    ).to.deep.equal(['technology:wind', 'tariff:two_part']);
  });

  it('reads a keyword back as its facet and value (years as numbers); other keywords are not facets', () => {
    expect(parseFacetValue('country:KE')).to.deep.equal({ facet: 'country', value: 'KE' });
    expect(parseFacetValue('year:2019')).to.deep.equal({ facet: 'year', value: 2019 });
    expect(parseFacetValue('risk_features:take_or_pay')).to.deep.equal({
      facet: 'risk_features',
      value: 'take_or_pay',
    });
    expect(parseFacetValue('developer:acme')).to.equal(undefined);
    expect(parseFacetValue('toString:x')).to.equal(undefined);
    expect(parseFacetValue('no separator')).to.equal(undefined);
  });
});
