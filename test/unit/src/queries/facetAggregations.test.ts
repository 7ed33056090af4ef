import { expect } from 'chai';
import { MAX_FACET_BUCKETS } from '../../../../src/params/facets.js';
import {
  buildFacetedParts,
  combinedFacetsComplete,
  COMBINED_FACET_BUCKETS,
  COMBINED_FACETS_AGGREGATION,
  readFacetBuckets,
} from '../../../../src/queries/facetAggregations.js';
import type { FilterClause } from '../../../../src/params/filters.js';

const technology: FilterClause = { clause: { terms: { technology: ['wind'] } }, facet: 'technology' };
const country: FilterClause = { clause: { terms: { country_code: ['KE'] } }, facet: 'country' };
const active: FilterClause = { clause: { term: { active: true } } };

const combinedTerms = {
  terms: { field: 'facet_values', size: COMBINED_FACET_BUCKETS, shard_size: COMBINED_FACET_BUCKETS },
};

describe('api search: facet aggregations', () => {
  it('facets without a filter of their own are counted by one aggregation on facet_values', () => {
    const parts = buildFacetedParts([active], ['technology', 'tariff', 'country', 'year', 'risk_features']);
    expect(parts.queryClauses).to.deep.equal([active.clause]);
    expect(parts.postFilterClauses).to.deep.equal([]);
    expect(parts.aggs).to.deep.equal({
      [COMBINED_FACETS_AGGREGATION]: {
        filter: { match_all: {} },
        aggs: { values: combinedTerms },
      },
    });
  });

  it('a facet with its own filter gets its own aggregation under the other filters; the rest go together', () => {
    const parts = buildFacetedParts([active, technology, country], ['technology', 'year', 'tariff']);
    expect(parts.queryClauses).to.deep.equal([active.clause, country.clause]);
    expect(parts.postFilterClauses).to.deep.equal([technology.clause]);
    expect(Object.keys(parts.aggs)).to.deep.equal([COMBINED_FACETS_AGGREGATION, 'facet_technology']);
    expect(parts.aggs[COMBINED_FACETS_AGGREGATION]).to.deep.equal({
      filter: { bool: { filter: [technology.clause] } },
      aggs: { values: combinedTerms },
    });
    expect(parts.aggs.facet_technology?.filter).to.deep.equal({ match_all: {} });
    expect(parts.aggs.facet_technology?.aggs?.values?.terms?.field).to.equal('technology');
  });

  it('one facet alone, or combine: false, counts each facet with an aggregation on its own field', () => {
    expect(Object.keys(buildFacetedParts([active], ['country']).aggs)).to.deep.equal(['facet_country']);
    const separate = buildFacetedParts([active], ['country', 'year'], { combine: false });
    expect(Object.keys(separate.aggs)).to.deep.equal(['facet_country', 'facet_year']);
    expect(separate.aggs.facet_year?.aggs?.values?.terms).to.deep.include({
      field: 'financial_close_year',
      size: MAX_FACET_BUCKETS,
      order: [{ _key: 'desc' }],
    });
  });

  it('splits the combined buckets by facet: count descending then value ascending, years newest first, capped', () => {
    const buckets = [
      { key: 'technology:wind', doc_count: 3 },
      { key: 'technology:hydro', doc_count: 3 },
      { key: 'technology:solar_pv', doc_count: 9 },
      { key: 'year:2017', doc_count: 8 },
      { key: 'year:2021', doc_count: 1 },
      { key: 'developer:acme', doc_count: 5 },
      ...Array.from({ length: 60 }, (_, i) => ({
        key: `country:C${String(i).padStart(2, '0')}`,
        doc_count: 1,
      })),
    ];
    const facets = readFacetBuckets(
      {
        [COMBINED_FACETS_AGGREGATION]: { doc_count: 20, values: { buckets, sum_other_doc_count: 0 } },
        facet_tariff: { doc_count: 20, values: { buckets: [{ key: 'energy_only', doc_count: 20 }] } },
      },
      ['technology', 'year', 'country', 'tariff', 'risk_features'],
    );
    expect(facets.technology).to.deep.equal([
      { value: 'solar_pv', count: 9 },
      { value: 'hydro', count: 3 },
      { value: 'wind', count: 3 },
    ]);
    expect(facets.year).to.deep.equal([
      { value: 2021, count: 1 },
      { value: 2017, count: 8 },
    ]);
    expect(facets.country).to.have.length(MAX_FACET_BUCKETS);
    expect(facets.country?.[0]).to.deep.equal({ value: 'C00', count: 1 });
    expect(facets.country?.at(-1)).to.deep.equal({ value: 'C49', count: 1 });
    expect(facets.tariff).to.deep.equal([{ value: 'energy_only', count: 20 }]);
    expect(facets.risk_features).to.deep.equal([]);
  });

  it('a combined aggregation cut at its bucket limit, or empty over matches (an older index), is not complete', () => {
    const combined = (other: number, matches = 1) => ({
      [COMBINED_FACETS_AGGREGATION]: {
        doc_count: matches,
        values: {
          buckets: matches ? [{ key: 'tariff:energy_only', doc_count: 1 }] : [],
          sum_other_doc_count: other,
        },
      },
    });
    expect(combinedFacetsComplete(combined(0))).to.equal(true);
    expect(combinedFacetsComplete(combined(0, 0))).to.equal(true);
    expect(combinedFacetsComplete(combined(4))).to.equal(false);
    expect(
      combinedFacetsComplete({ [COMBINED_FACETS_AGGREGATION]: { doc_count: 3, values: { buckets: [] } } }),
    ).to.equal(false);
    expect(combinedFacetsComplete({ facet_country: { values: { buckets: [] } } })).to.equal(true);
    expect(combinedFacetsComplete(undefined)).to.equal(true);
  });
});
