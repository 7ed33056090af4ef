import { expect } from 'chai';
import { LIST_SOURCE_FIELDS } from '../../../../indexContract/sourceFields.js';
import { parseListQuery } from '../../../../src/params/list.js';
import { escapeWildcard } from '../../../../src/params/filters.js';
import { buildFilterClauses } from '../../../../src/queries/searchQuery.js';
import { buildListSearch, buildListSearches, buildSort } from '../../../../src/queries/listSearch.js';
import { buildTextQuery } from '../../../../src/queries/textQuery.js';

describe('api search: list request', () => {
  it('without filters: active only, recent order, first page of 25, exact total, list fields', () => {
    expect(buildListSearch(parseListQuery(''))).to.deep.equal({
      query: { bool: { filter: [{ term: { active: true } }] } },
      sort: [{ published_at: { order: 'desc' } }, { slug: { order: 'asc' } }],
      from: 0,
      size: 25,
      track_total_hits: true,
      _source: [...LIST_SOURCE_FIELDS],
    });
  });

  it('puts every filter in filter context', () => {
    const request = buildListSearch(
      parseListQuery(
        'technology=solar_pv,wind&tariff=energy_only&developer=Eng*e?%20\\&year=2018' +
          '&risk_features[]=take_or_pay&risk_features[]=fx_indexed&min_capacity=5&max_capacity=50&page=3&per_page=10',
      ),
    );
    expect(request.query).to.deep.equal({
      bool: {
        filter: [
          { term: { active: true } },
          { terms: { technology: ['solar_pv', 'wind'] } },
          { terms: { tariff: ['energy_only'] } },
          { wildcard: { 'developer_folded.kw': { value: '*eng\\*e\\? \\\\*' } } },
          { term: { financial_close_year: 2018 } },
          { term: { risk_features: 'take_or_pay' } },
          { term: { risk_features: 'fx_indexed' } },
          { range: { capacity_mw: { gte: 5 } } },
          { range: { capacity_mw: { lte: 50 } } },
        ],
      },
    });
    expect(request).to.include({ from: 20, size: 10 });
  });

  it('!values leave out, a year range is a range; each filter stays one clause (its facet leaves it out whole)', () => {
    const clauses = buildFilterClauses(
      parseListQuery(
        'technology=solar_pv,!wind&tariff=!energy_only&country=!gh,!SN&year=2010..2015&risk_features[]=!take_or_pay',
      ),
    );
    expect(clauses).to.deep.equal([
      { term: { active: true } },
      {
        bool: {
          filter: [{ terms: { technology: ['solar_pv'] } }],
          must_not: [{ terms: { technology: ['wind'] } }],
        },
      },
      { bool: { must_not: [{ terms: { tariff: ['energy_only'] } }] } },
      { bool: { must_not: [{ terms: { country_code: ['GH', 'SN'] } }] } },
      { range: { financial_close_year: { gte: 2010, lte: 2015 } } },
      { bool: { must_not: [{ term: { risk_features: 'take_or_pay' } }] } },
    ]);
    expect(buildFilterClauses(parseListQuery('year=2015..')).at(-1)).to.deep.equal({
      range: { financial_close_year: { gte: 2015 } },
    });
    expect(buildFilterClauses(parseListQuery('year=..2005')).at(-1)).to.deep.equal({
      range: { financial_close_year: { lte: 2005 } },
    });
  });

  it('folds the developer like the indexer folds documents', () => {
    expect(buildFilterClauses({ developer: 'SÃO Énergie' })[1]).to.deep.equal({
      wildcard: { 'developer_folded.kw': { value: '*sao energie*' } },
    });
    expect(escapeWildcard('a*b?c\\d')).to.equal('a\\*b\\?c\\\\d');
    expect(buildFilterClauses({ minCapacity: 0 })[1]).to.deep.equal({ range: { capacity_mw: { gte: 0 } } });
  });

  it('scores only the text query, and sorts by relevance with q', () => {
    const request = buildListSearch(parseListQuery('q=Kahone&technology=solar_pv'));
    expect(request.query).to.deep.equal({
      bool: {
        filter: [{ term: { active: true } }, { terms: { technology: ['solar_pv'] } }],
        must: [buildTextQuery('Kahone')],
      },
    });
    expect(request.sort).to.deep.equal([{ _score: { order: 'desc' } }, { slug: { order: 'asc' } }]);
  });

  it('every sort order of the contract ends with slug ascending', () => {
    expect(buildSort('name_asc')).to.deep.equal([
      { name_sort: { order: 'asc' } },
      { slug: { order: 'asc' } },
    ]);
    expect(buildSort('name_desc')).to.deep.equal([
      { name_sort: { order: 'desc' } },
      { slug: { order: 'asc' } },
    ]);
    expect(buildSort('capacity_asc')).to.deep.equal([
      { capacity_mw: { order: 'asc' } },
      { slug: { order: 'asc' } },
    ]);
    expect(buildSort('capacity_desc')).to.deep.equal([
      { capacity_mw: { order: 'desc' } },
      { slug: { order: 'asc' } },
    ]);
    expect(buildSort('oldest')).to.deep.equal([
      { published_at: { order: 'asc' } },
      { slug: { order: 'asc' } },
    ]);
    expect(buildSort('flags_desc')).to.deep.equal([
      { flag_count: { order: 'desc', missing: 0 } },
      { published_at: { order: 'desc' } },
      { slug: { order: 'asc' } },
    ]);
  });

  describe('the searches of one list request (buildListSearches)', () => {
    it('without facets: the one search', () => {
      const query = parseListQuery('technology=solar_pv&page=2');
      expect(buildListSearches(query)).to.deep.equal([buildListSearch(query)]);
    });

    it('facets with q: one search that carries the aggregations', () => {
      const query = parseListQuery('q=solar&technology=solar_pv&facets=technology,country');
      const searches = buildListSearches(query);
      expect(searches).to.deep.equal([buildListSearch(query)]);
      expect(Object.keys(searches[0].aggs ?? {})).to.deep.equal(['facet_technology', 'facet_country']);
    });

    it('facets without q: the page as without facets, and a size-0 search with the facet counts', () => {
      const query = parseListQuery(
        'technology=solar_pv&sort=name_asc&page=3&facets=technology,risk_features',
      );
      const [page, counts, ...rest] = buildListSearches(query);
      expect(rest).to.have.length(0);
      expect(page).to.deep.equal(buildListSearch(parseListQuery('technology=solar_pv&sort=name_asc&page=3')));
      // The same aggregations and query as the one-search form (the technology filter left to the facets).
      const single = buildListSearch(query);
      expect(counts).to.deep.equal({
        query: single.query,
        size: 0,
        track_total_hits: false,
        aggs: single.aggs,
      });
      // Only the filters and the facets make it: another page or sort asks Elasticsearch the very same search.
      const otherPage = buildListSearches(
        parseListQuery('technology=solar_pv&sort=recent&page=9&facets=technology,risk_features'),
      );
      expect(otherPage[1]).to.deep.equal(counts);
    });
  });
});
