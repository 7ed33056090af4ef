import { expect } from 'chai';
import { SearchText } from '../../../../src/matching/queryText.js';
import { BadRequestError } from '../../../../src/http/problem.js';
import { problemsOf, names } from '../../../support/problems.js';
import { listQuery, parseListQuery } from '../../../../src/params/list.js';

const listParameters = listQuery.parameters;
import { parseStatisticsQuery } from '../../../../src/params/statistics.js';

describe('api params: list', () => {
  it('defaults: page 1, 25 per page, recent without q, relevance with q', () => {
    expect(parseListQuery('')).to.deep.equal({ sort: 'recent', page: 1, perPage: 25 });
    expect(parseListQuery('q=solar')).to.deep.equal({
      q: new SearchText('solar'),
      sort: 'relevance',
      page: 1,
      perPage: 25,
    });
    expect(parseListQuery('q=solar&sort=name_asc').sort).to.equal('name_asc');
  });

  it('parses every parameter, trimming text and lowercasing tokens', () => {
    const query = parseListQuery(
      'q=%20S%C3%A3o+Jo%C3%A3o%20&technology=Solar_PV,%20WIND&tariff=energy_only&developer=%20Engie%20' +
        '&year=2018&risk_features[]=take_or_pay&risk_features=Government_Guarantee,fx_indexed' +
        '&min_capacity=1.5&max_capacity=100&sort=capacity_desc&page=3&per_page=100',
    );
    expect(query).to.deep.equal({
      q: new SearchText('São João'),
      technology: { chosen: ['solar_pv', 'wind'], left: [] },
      tariff: { chosen: ['energy_only'], left: [] },
      developer: 'Engie',
      year: { from: 2018, to: 2018 },
      riskFeatures: { chosen: ['take_or_pay', 'government_guarantee', 'fx_indexed'], left: [] },
      minCapacity: 1.5,
      maxCapacity: 100,
      sort: 'capacity_desc',
      page: 3,
      perPage: 100,
    });
  });

  it('treats blank values as absent (HTML forms)', () => {
    expect(
      parseListQuery('q=&technology=%20&developer=+&year=&page=&per_page=&sort=&risk_features[]='),
    ).to.deep.equal({ sort: 'recent', page: 1, perPage: 25 });
  });

  it('a blank q with sort=relevance is the relevance-without-q error, named by sort', () => {
    expect(problemsOf(() => parseListQuery('q=%20%20&sort=relevance'))).to.deep.equal([
      { name: 'sort', reason: 'relevance requires a non-blank q' },
    ]);
  });

  it('a q that only leaves out orders as without q: recent by default, relevance is the error of sort', () => {
    expect(parseListQuery('q=-coal%20-gas').sort).to.equal('recent');
    expect(parseListQuery('q=-coal%20ghana').sort).to.equal('relevance');
    expect(problemsOf(() => parseListQuery('q=-coal&sort=relevance'))).to.deep.equal([
      {
        name: 'sort',
        reason: 'relevance requires a q that looks for something, not only what it leaves out',
      },
    ]);
  });

  it('counts every word of q for its bound: those of phrases, alternatives and exclusions, not OR', () => {
    const twelve = '"a b c" d OR e -f -"g h" i j k l';
    expect(parseListQuery(`q=${encodeURIComponent(twelve)}`).q?.text).to.equal(twelve);
    expect(problemsOf(() => parseListQuery(`q=${encodeURIComponent(`${twelve} m`)}`))).to.deep.equal([
      { name: 'q', reason: 'has 13 words; at most 12' },
    ]);
  });

  it('reads !values as left out, and year as one year or a range', () => {
    expect(
      parseListQuery(
        'technology=solar_pv,!wind,!wind&country=!gh&risk_features[]=!take_or_pay&year=2010..2015',
      ),
    ).to.deep.include({
      technology: { chosen: ['solar_pv'], left: ['wind'] },
      country: { chosen: [], left: ['GH'] },
      riskFeatures: { chosen: [], left: ['take_or_pay'] },
      year: { from: 2010, to: 2015 },
    });
    expect(parseListQuery('year=2015..').year).to.deep.equal({ from: 2015 });
    expect(parseListQuery('year=..2005').year).to.deep.equal({ to: 2005 });
    expect(parseListQuery('year=2012')).to.deep.include({ year: { from: 2012, to: 2012 } });
    expect(parseListQuery('technology=wind').technology).to.deep.equal({ chosen: ['wind'], left: [] });
  });

  it('a range that starts after it ends, a bad range: 400 naming the parameter', () => {
    expect(problemsOf(() => parseListQuery('year=2015..2010'))).to.deep.equal([
      { name: 'year', reason: 'the range starts after it ends (2015 > 2010)' },
    ]);
    for (const value of ['..', '2010...2015', '2010-2015', 'abc', '1899..', '..2101']) {
      expect(names(problemsOf(() => parseListQuery(`year=${value}`))), value).to.deep.equal(['year']);
    }
    expect(problemsOf(() => parseListQuery('year=3000'))).to.deep.equal([
      { name: 'year', reason: 'must be between 1900 and 2100' },
    ]);
    expect(problemsOf(() => parseListQuery('year=abc'))[0]?.reason).to.match(
      /^must be a year, or a range of years/,
    );
    expect(names(problemsOf(() => parseListQuery('technology=!!wind')))).to.deep.equal(['technology']);
    expect(names(problemsOf(() => parseListQuery('country=!ghana')))).to.deep.equal(['country']);
  });

  it('accepts the bounds and rejects what lies past them', () => {
    expect(parseListQuery('year=1900&min_capacity=0&max_capacity=100000&per_page=1').year).to.deep.equal({
      from: 1900,
      to: 1900,
    });
    expect(parseListQuery('year=2100').year).to.deep.equal({ from: 2100, to: 2100 });
    expect(parseListQuery(`q=${'a'.repeat(200)}`).q?.text).to.have.length(200);
    expect(parseListQuery(`developer=${'d'.repeat(100)}`).developer).to.have.length(100);
    const problems = problemsOf(() =>
      parseListQuery(
        `q=${'a'.repeat(201)}&developer=${'d'.repeat(101)}&year=1899&min_capacity=-1&max_capacity=100000.1` +
          '&page=0&per_page=101&sort=newest',
      ),
    );
    expect(names(problems)).to.deep.equal([
      'developer',
      'max_capacity',
      'min_capacity',
      'page',
      'per_page',
      'q',
      'sort',
      'year',
    ]);
    expect(problemsOf(() => parseListQuery('year=2101'))[0]?.reason).to.equal(
      'must be between 1900 and 2100',
    );
  });

  it('rejects numbers that are not plain decimals', () => {
    for (const value of ['abc', '0x10', 'Infinity', '1e400', '1.5', '2,5', 'NaN']) {
      expect(
        names(problemsOf(() => parseListQuery(`page=${encodeURIComponent(value)}`))),
        value,
      ).to.deep.equal(['page']);
    }
    expect(parseListQuery('min_capacity=1e2').minCapacity).to.equal(100);
    expect(names(problemsOf(() => parseListQuery('min_capacity=0x10')))).to.deep.equal(['min_capacity']);
  });

  it('an empty token is an error; a well-formed unknown token is not', () => {
    expect(problemsOf(() => parseListQuery('technology=solar_pv,,wind'))).to.deep.equal([
      { name: 'technology', reason: 'contains an empty value (as in "a,,b" or a trailing ",")' },
    ]);
    expect(names(problemsOf(() => parseListQuery('tariff=energy_only,')))).to.deep.equal(['tariff']);
    expect(names(problemsOf(() => parseListQuery('technology=solar-pv')))).to.deep.equal(['technology']);
    expect(parseListQuery('technology=nuclear_fusion').technology?.chosen).to.deep.equal(['nuclear_fusion']);
  });

  it('merges risk_features and risk_features[] and caps them at 20 together', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `f${i}`);
    expect(
      parseListQuery(twenty.map((f) => `risk_features[]=${f}`).join('&')).riskFeatures?.chosen,
    ).to.have.length(20);
    const split = [
      ...twenty.slice(0, 10).map((f) => `risk_features[]=${f}`),
      ...twenty.slice(10).map((f) => `risk_features=${f}`),
    ];
    expect(parseListQuery(split.join('&')).riskFeatures?.chosen).to.have.length(20);
    expect(
      names(problemsOf(() => parseListQuery(`${split.join('&')}&risk_features=one_more`))),
    ).to.deep.equal(['risk_features[]']);
    expect(parseListQuery('risk_features%5B%5D=take_or_pay').riskFeatures?.chosen).to.deep.equal([
      'take_or_pay',
    ]);
    expect(problemsOf(() => parseListQuery('risk_features=Bad-Token'))).to.deep.equal([
      {
        name: 'risk_features',
        reason: '"bad-token" is not a token of lowercase letters, digits and underscores (!token: left out)',
      },
    ]);
  });

  it('unknown and repeated single-valued parameters are named', () => {
    expect(problemsOf(() => parseListQuery('foo=1&Q=x&limit='))).to.have.deep.members([
      { name: 'foo', reason: 'unknown parameter' },
      { name: 'Q', reason: 'unknown parameter' },
      { name: 'limit', reason: 'unknown parameter' },
    ]);
    expect(
      problemsOf(() => parseListQuery('q=a&q=b&page=1&page=2&technology=wind&technology=hydro')),
    ).to.have.deep.members([
      { name: 'q', reason: 'must be given at most once' },
      { name: 'page', reason: 'must be given at most once' },
      { name: 'technology', reason: 'must be given at most once' },
    ]);
    expect(names(problemsOf(() => parseListQuery('__proto__=x&constructor=&toString=1')))).to.deep.equal([
      '__proto__',
      'constructor',
      'toString',
    ]);
    expect(problemsOf(() => parseStatisticsQuery('constructor=1'))).to.deep.equal([
      { name: 'constructor', reason: 'unknown parameter' },
    ]);
    // A blank repetition counts as absent.
    expect(parseListQuery('q=&q=wind').q?.text).to.equal('wind');
  });

  it('cross-field problems: min > max by min_capacity, deep paging by page', () => {
    expect(problemsOf(() => parseListQuery('min_capacity=10&max_capacity=5'))).to.deep.equal([
      { name: 'min_capacity', reason: 'must not be greater than max_capacity' },
    ]);
    expect(parseListQuery('min_capacity=5&max_capacity=5').minCapacity).to.equal(5);
    expect(parseListQuery('page=100&per_page=100').page).to.equal(100);
    expect(parseListQuery('page=400').page).to.equal(400);
    expect(names(problemsOf(() => parseListQuery('page=101&per_page=100')))).to.deep.equal(['page']);
    expect(names(problemsOf(() => parseListQuery('page=401')))).to.deep.equal(['page']);
    expect(names(problemsOf(() => parseListQuery('page=401&per_page=x')))).to.deep.equal(['per_page']);
  });

  it('reports every problem at once', () => {
    const problems = problemsOf(() =>
      parseListQuery('foo=1&technology=a,,b&year=x&per_page=0&sort=relevance&min_capacity=9&max_capacity=1'),
    );
    expect(names(problems)).to.deep.equal(['foo', 'min_capacity', 'per_page', 'sort', 'technology', 'year']);
  });

  it('exports the schema and an OpenAPI parameter list built from it', () => {
    expect(Object.keys(listQuery.schema.properties)).to.deep.equal([
      'q',
      'technology',
      'tariff',
      'country',
      'developer',
      'year',
      'risk_features[]',
      'min_capacity',
      'max_capacity',
      'flags',
      'party',
      'flagged',
      'sort',
      'page',
      'per_page',
      'slug',
      'fields',
      'facets',
      'highlight',
      'cursor',
    ]);
    const technology = listParameters.find((p) => p.name === 'technology');
    expect(technology).to.include({ in: 'query', style: 'form', explode: false });
    expect(listParameters.find((p) => p.name === 'risk_features[]')).to.include({ explode: true });
    for (const parameter of listParameters) expect(parameter.description).to.be.a('string').and.not.equal('');
  });
});

describe('api params: list additions (country, slug, fields, facets)', () => {
  it('country: codes joined by ",", any case, uppercased as the index holds them', () => {
    expect(parseListQuery('country=sn,Ke').country?.chosen).to.deep.equal(['SN', 'KE']);
    expect(names(problemsOf(() => parseListQuery('country=SEN')))).to.deep.equal(['country']);
    expect(names(problemsOf(() => parseListQuery('country=s1')))).to.deep.equal(['country']);
    const many = Array.from({ length: 21 }, (_, i) => `a${String.fromCharCode(97 + i)}`).join(',');
    expect(names(problemsOf(() => parseListQuery(`country=${many}`)))).to.deep.equal(['country']);
  });

  it('token lists take at most 20 tokens of at most 50 characters', () => {
    const tokens = (count: number, length = 3) =>
      Array.from({ length: count }, (_, i) => `t${i}`.padEnd(length, 'x'));
    expect(parseListQuery(`technology=${tokens(20).join(',')}`).technology?.chosen).to.have.length(20);
    expect(names(problemsOf(() => parseListQuery(`technology=${tokens(21).join(',')}`)))).to.deep.equal([
      'technology',
    ]);
    expect(names(problemsOf(() => parseListQuery(`tariff=${tokens(1, 51).join(',')}`)))).to.deep.equal([
      'tariff',
    ]);
  });

  it('slug: up to 100 well-formed slugs, each once', () => {
    expect(parseListQuery('slug=b-solar,a-wind,b-solar').slugs).to.deep.equal(['b-solar', 'a-wind']);
    const slugs = Array.from({ length: 101 }, (_, i) => `s-${i}`).join(',');
    expect(names(problemsOf(() => parseListQuery(`slug=${slugs}`)))).to.deep.equal(['slug']);
    expect(names(problemsOf(() => parseListQuery('slug=not_a_slug')))).to.deep.equal(['slug']);
  });

  it('fields: known item fields only, slug always among them, in item order', () => {
    expect(parseListQuery('fields=capacity_mw,project_name').fields).to.deep.equal([
      'slug',
      'project_name',
      'capacity_mw',
    ]);
    expect(problemsOf(() => parseListQuery('fields=project_name,secret'))).to.have.length(1);
    expect(parseListQuery('fields=url').fields).to.deep.equal(['slug']);
    expect(names(problemsOf(() => parseListQuery('fields=active')))).to.deep.equal(['fields']);
  });

  it('facets: the five names only, each once', () => {
    expect(parseListQuery('facets=year,technology,year').facets).to.deep.equal(['technology', 'year']);
    expect(names(problemsOf(() => parseListQuery('facets=developer')))).to.deep.equal(['facets']);
  });
});

describe('api params: bounds after folding (q, developer)', () => {
  it('q: at most 200 characters and 12 words once folded', () => {
    // U+FDFA folds to 18 characters and 4 words: 11 of them are 11 characters as typed, 198 folded.
    expect(parseListQuery(`q=${encodeURIComponent('ﷺ'.repeat(3))}`).q?.text).to.equal('ﷺ'.repeat(3));
    const problems = problemsOf(() => parseListQuery(`q=${encodeURIComponent('ﷺ'.repeat(200))}`));
    expect(names(problems)).to.deep.equal(['q']);
    expect(problems[0]?.reason).to.contain('once accents and ligatures are spelled out');
    expect(parseListQuery(`q=${Array.from({ length: 12 }, (_, i) => `w${i}`).join('+')}`).q?.text).to.be.a(
      'string',
    );
    expect(
      names(problemsOf(() => parseListQuery(`q=${Array.from({ length: 13 }, (_, i) => `w${i}`).join('+')}`))),
    ).to.deep.equal(['q']);
  });

  it('developer: at most 100 characters once folded', () => {
    expect(
      names(problemsOf(() => parseListQuery(`developer=${encodeURIComponent('ﬃ'.repeat(40))}`))),
    ).to.deep.equal(['developer']);
    expect(parseListQuery(`developer=${encodeURIComponent('ﬃ'.repeat(33))}`).developer).to.have.length(33);
  });

  it('a 400 names at most 20 problems and says how many more there were', () => {
    const query = Array.from({ length: 60 }, (_, i) => `unknown${i}=1`).join('&');
    let thrown: unknown;
    try {
      parseListQuery(query);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(BadRequestError);
    const error = thrown as BadRequestError;
    expect(error.invalidParams).to.have.length(20);
    expect(error.detail).to.contain('(and 40 more problems not listed)');
  });
});

describe('api params: highlight (issue 46)', () => {
  it('takes true or false, true only when asked', () => {
    expect(parseListQuery('q=solar&highlight=true').highlight).to.equal(true);
    expect(parseListQuery('q=solar&highlight=false')).to.not.have.property('highlight');
    expect(parseListQuery('q=solar')).to.not.have.property('highlight');
    expect(names(problemsOf(() => parseListQuery('highlight=yes')))).to.deep.equal(['highlight']);
  });
});
