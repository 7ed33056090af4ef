// The list's filters, each declared once: every declaration is seen by the parameters, the parsed filters, the
// clauses, the cursor and the feed's words. A filter added to LIST_FILTERS without a sample here fails the first
// test, so each new one is checked by all the others.
import { expect } from 'chai';
import {
  cursorBinding,
  FILTER_PARAMETERS,
  filterClauses,
  filterWords,
  LIST_FILTERS,
  REPEATABLE_FILTERS,
} from '../../../../src/params/filters.js';
import { parseListQuery } from '../../../../src/params/list.js';
import { parseFeedQuery } from '../../../../src/params/changes.js';

/** One request per filter, setting it alone. */
const SAMPLES: Record<keyof typeof LIST_FILTERS, string> = {
  q: 'q=kafue',
  technology: 'technology=solar_pv,!wind',
  tariff: 'tariff=energy_only',
  country: 'country=sn,!gh',
  developer: 'developer=Engie',
  year: 'year=2010..2015',
  riskFeatures: 'risk_features[]=take_or_pay&risk_features=!fx_indexed',
  minCapacity: 'min_capacity=5',
  maxCapacity: 'max_capacity=50',
  flags: 'flags=single_bid,!tariff_outlier',
  party: 'party=kenya-power,!acme-power-1a2b3c4d',
  flagged: 'flagged=true',
};

describe('params/filters: the list filters, each declared once', () => {
  it('has a sample for every declared filter, and each sample sets its filter alone', () => {
    expect(Object.keys(SAMPLES).sort()).to.deep.equal(Object.keys(LIST_FILTERS).sort());
    for (const [key, sample] of Object.entries(SAMPLES)) {
      expect(Object.keys(parseFeedQuery(sample)), sample).to.deep.equal([key]);
    }
  });

  it('declares each filter as a query parameter under its name, the repeatable one with its alias', () => {
    expect(Object.keys(FILTER_PARAMETERS)).to.deep.equal(Object.values(LIST_FILTERS).map((f) => f.name));
    expect(REPEATABLE_FILTERS).to.deep.equal({ 'risk_features[]': ['risk_features'] });
  });

  it('gives every filter but q its clauses, marked with its facet; q alone adds none (it scores)', () => {
    for (const [key, sample] of Object.entries(SAMPLES)) {
      const clauses = filterClauses(parseFeedQuery(sample));
      if (key === 'q') expect(clauses, sample).to.deep.equal([]);
      else expect(clauses, sample).to.have.length.above(0);
    }
    expect(filterClauses(parseFeedQuery('country=sn,!gh'))).to.deep.equal([
      {
        clause: {
          bool: {
            filter: [{ terms: { country_code: ['SN'] } }],
            must_not: [{ terms: { country_code: ['GH'] } }],
          },
        },
        facet: 'country',
      },
    ]);
    expect(filterClauses(parseFeedQuery('year=2012'))).to.deep.equal([
      { clause: { term: { financial_close_year: 2012 } }, facet: 'year' },
    ]);
    expect(filterClauses(parseFeedQuery(SAMPLES.riskFeatures))).to.deep.equal([
      { clause: { term: { risk_features: 'take_or_pay' } } },
      { clause: { bool: { must_not: [{ term: { risk_features: 'fx_indexed' } }] } } },
    ]);
  });

  it('takes a value both chosen and left out out of the selection, without a problem', () => {
    const query = parseFeedQuery('technology=wind,hybrid,!hybrid');
    expect(query.technology).to.deep.equal({ chosen: ['wind', 'hybrid'], left: ['hybrid'] });
    expect(filterClauses(query)[0]?.clause).to.deep.equal({
      bool: {
        filter: [{ terms: { technology: ['wind', 'hybrid'] } }],
        must_not: [{ terms: { technology: ['hybrid'] } }],
      },
    });
  });

  it('binds a cursor walk to every filter, whatever the order of its values', () => {
    const none = JSON.stringify(cursorBinding({}));
    for (const sample of Object.values(SAMPLES)) {
      expect(JSON.stringify(cursorBinding(parseFeedQuery(sample))), sample).to.not.equal(none);
    }
    expect(cursorBinding(parseFeedQuery('technology=wind,hydro,!coal'))).to.deep.equal(
      cursorBinding(parseFeedQuery('technology=!coal,hydro,wind')),
    );
    expect(cursorBinding(parseFeedQuery('year=2012'))).to.not.deep.equal(
      cursorBinding(parseFeedQuery('year=2012..')),
    );
  });

  it('says every filter in words for a feed title, in declaration order', () => {
    expect(filterWords({})).to.equal(null);
    for (const sample of Object.values(SAMPLES))
      expect(filterWords(parseFeedQuery(sample)), sample).to.be.a('string');
    expect(
      filterWords(
        parseListQuery('q=kafue&technology=solar_pv,hydro,!wind&country=SN&min_capacity=5&year=2012'),
      ),
    ).to.equal(
      'q "kafue", technology solar_pv or hydro, technology not wind, country SN, year 2012, at least 5 MW',
    );
    expect(filterWords(parseFeedQuery('year=..2005&risk_features=!take_or_pay'))).to.equal(
      'years ..2005, without risk features take_or_pay',
    );
  });

  it('reads flags as a closed set (an unknown code names flags and lists the codes) and flagged as a boolean', () => {
    expect(parseFeedQuery(SAMPLES.flags).flags).to.deep.equal({
      chosen: ['single_bid'],
      left: ['tariff_outlier'],
    });
    expect(filterClauses(parseFeedQuery('flags=single_bid,short_tender'))).to.deep.equal([
      { clause: { terms: { flags: ['single_bid', 'short_tender'] } }, facet: 'flags' },
    ]);
    let problem: unknown;
    try {
      parseFeedQuery('flags=single_bid,!bogus');
    } catch (error) {
      problem = error;
    }
    const params = (problem as { invalidParams?: { name: string; reason: string }[] }).invalidParams;
    expect(params).to.have.length(1);
    expect(params![0]!.name).to.equal('flags');
    expect(params![0]!.reason).to.contain('"!bogus"').and.contain('single_bid, no_competition, short_tender');
    expect(filterClauses(parseFeedQuery('flagged=true'))).to.deep.equal([
      { clause: { exists: { field: 'flags' } } },
    ]);
    expect(filterClauses(parseFeedQuery('flagged=false'))).to.deep.equal([
      { clause: { bool: { must_not: [{ exists: { field: 'flags' } }] } } },
    ]);
    expect(filterWords(parseFeedQuery('flags=single_bid&flagged=true'))).to.equal(
      'flags single_bid, flagged',
    );
  });

  it('names min_capacity when it exceeds max_capacity, judged on valid values only', () => {
    expect(() => parseFeedQuery('min_capacity=5&max_capacity=4')).to.throw();
    expect(parseFeedQuery('min_capacity=5&max_capacity=5')).to.deep.equal({
      minCapacity: 5,
      maxCapacity: 5,
    });
  });
});
