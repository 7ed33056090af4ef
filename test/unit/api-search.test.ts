import { expect } from 'chai';
import { parseListQuery } from '../../src/params/list.js';
import { parseStatisticsQuery } from '../../src/params/statistics.js';
import { buildDetailSearch } from '../../src/search/detailSearch.js';
import { LIST_SOURCE_FIELDS } from '../../src/search/document.js';
import { buildFilterClauses, escapeWildcard } from '../../src/search/filters.js';
import { buildListSearch, buildSort } from '../../src/search/listSearch.js';
import { buildStatisticsSearch, TERMS_SIZE } from '../../src/search/statisticsSearch.js';
import { buildTextQuery, TEXT_FIELDS } from '../../src/search/textQuery.js';

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
          { range: { capacity_mw: { gte: 5, lte: 50 } } },
        ],
      },
    });
    expect(request).to.include({ from: 20, size: 10 });
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
  });
});

describe('api search: text query', () => {
  it('folds q; every word must match (as typed, with a typo, or the last as a prefix); the whole name, its phrase and its start rank higher', () => {
    const query = buildTextQuery('  São   João Solar ');
    expect(query).to.deep.equal({
      bool: {
        should: [
          { term: { 'reference_code.lc': { value: 'são   joão solar', boost: 10_000 } } },
          {
            bool: {
              must: [
                wordQuery('sao'),
                wordQuery('joao', { droppedLetter: true }),
                wordQuery('solar', {
                  droppedLetter: true,
                  withoutOneLetter: 'slar soar solr sola',
                  last: true,
                }),
              ],
              should: [
                {
                  constant_score: { filter: { term: { 'name_folded.exact': 'sao joao solar' } }, boost: 100 },
                },
                {
                  constant_score: {
                    filter: { fuzzy: { 'name_folded.exact': { value: 'sao joao solar', fuzziness: 1 } } },
                    boost: 50,
                  },
                },
                {
                  match: { name_folded: { query: 'sao joao solar', operator: 'and', fuzziness: 'AUTO:5,8' } },
                },
                { multi_match: { query: 'sao joao solar', type: 'phrase', fields: TEXT_FIELDS, boost: 10 } },
                { match_phrase_prefix: { name_folded: { query: 'sao joao solar', boost: 5 } } },
              ],
            },
          },
        ],
        minimum_should_match: 1,
      },
    });
    expect(TEXT_FIELDS).to.deep.equal([
      'name_folded^3',
      'reference_code_folded^3',
      'developer_folded',
      'location_folded',
    ]);
  });

  it('leaves only the reference code clause when no word has a letter or digit (it would match everything)', () => {
    expect(buildTextQuery('-- !!')).to.deep.equal({
      bool: {
        should: [{ term: { 'reference_code.lc': { value: '-- !!', boost: 10_000 } } }],
        minimum_should_match: 1,
      },
    });
  });

  it('the exact reference code clause is case-insensitive', () => {
    const should = (buildTextQuery('sn-sol-2018-001') as { bool: { should: unknown[] } }).bool.should;
    expect(should[0]).to.deep.equal({
      term: { 'reference_code.lc': { value: 'sn-sol-2018-001', boost: 10_000 } },
    });
  });
});

/** The clause of one typed word: as typed, with a typo (weighted down), a letter dropped or added, (last) a prefix. */
function wordQuery(
  word: string,
  {
    droppedLetter = false,
    withoutOneLetter = '',
    last = false,
  }: { droppedLetter?: boolean; withoutOneLetter?: string; last?: boolean } = {},
) {
  const queries: unknown[] = [
    { multi_match: { query: word, type: 'cross_fields', fields: TEXT_FIELDS, operator: 'and' } },
    {
      multi_match: {
        query: word,
        type: 'best_fields',
        fields: TEXT_FIELDS,
        fuzziness: 'AUTO:5,8',
        operator: 'and',
        boost: 0.2,
      },
    },
  ];
  if (droppedLetter) queries.push({ term: { name_dropped_letter: { value: word, boost: 0.6 } } });
  if (withoutOneLetter) queries.push({ match: { name_folded: { query: withoutOneLetter, boost: 1 } } });
  if (last) {
    queries.push({ multi_match: { query: word, type: 'bool_prefix', fields: TEXT_FIELDS, operator: 'and' } });
  }
  return { dis_max: { queries } };
}

describe('api search: statistics request', () => {
  it('is one size-0 request with the same filters and every aggregation', () => {
    const request = buildStatisticsSearch(parseStatisticsQuery('technology=wind&year=2015'));
    expect(request.size).to.equal(0);
    expect(request.track_total_hits).to.equal(true);
    expect(request.query).to.deep.equal({
      bool: {
        filter: [
          { term: { active: true } },
          { terms: { technology: ['wind'] } },
          { term: { financial_close_year: 2015 } },
        ],
      },
    });
    const aggs = request.aggs ?? {};
    expect(Object.keys(aggs)).to.have.members([
      'capacity_mw',
      'by_technology',
      'by_year',
      'without_year',
      'government_guarantee',
      'take_or_pay',
      'annual_payment_obligation_usd',
      'guaranteed_amount_usd',
      'with_disclosed_amounts',
      'by_risk_feature',
      'by_tariff',
      'live_index',
    ]);
    expect(aggs.by_technology?.terms).to.deep.equal({ field: 'technology', size: TERMS_SIZE });
    expect(aggs.without_year?.missing).to.deep.equal({ field: 'financial_close_year' });
    // The live index is named even when the filters match nothing.
    expect(aggs.live_index).to.deep.equal({
      global: {},
      aggs: { name: { terms: { field: '_index', size: 1 } } },
    });
  });
});

describe('api search: detail request', () => {
  it('looks the slug up without the active filter', () => {
    const request = buildDetailSearch('kahone-solar');
    expect(request.query).to.deep.equal({ bool: { filter: [{ term: { slug: 'kahone-solar' } }] } });
    expect(request.size).to.equal(1);
    expect(request._source).to.include.members(['active', 'procurement', 'versions', 'documents']);
  });
});
