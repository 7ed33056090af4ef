import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { buildDocument, toUtcTimestamp } from '../../../../indexer/elasticsearch/buildDocument.js';
import type { PpaRecord } from '../../../../indexContract/record.js';
import { joinedPairs } from '../../../../indexContract/text/canonical.js';
import { wordPrefixes } from '../../../../indexContract/text/prefixes.js';
import { droppedLetterSpellings, withoutFirstLetter } from '../../../../indexContract/text/typos.js';

const mapping = JSON.parse(
  readFileSync(new URL('../../../../mappings/ppas.json', import.meta.url), 'utf8'),
) as {
  mappings: { properties: Record<string, unknown> };
};

const kahone: PpaRecord = {
  slug: 'kahone-solar',
  reference_code: 'SN-SOL-2018-001',
  project_name: 'Kahoné Solar',
  developer: 'Ærø Énergie / Łódź Power',
  location: 'Kaolack, Sénégal',
  country_code: 'SN',
  technology: 'solar_pv',
  tariff: 'energy_only',
  capacity_mw: 60,
  financial_close_year: 2018,
  risk_features: ['government_guarantee', 'take_or_pay'],
  published: true,
  active: false,
  published_at: '2024-03-01T14:00:00+02:00',
  updated_at: '2024-06-02T08:30:00.250Z',
  offtaker: { name: 'Utility', type: 'state_utility' },
  contract: { signed_date: '2018-05-15', term_years: 25, currency: 'EUR' },
  fiscal: { annual_payment_obligation_usd: 4_900_000 },
  procurement: { method: 'competitive_tender', number_of_bidders: 6 },
  versions: [{ version: 1, date: '2018-04-05', summary: 'Initial publication' }],
  documents: [
    {
      title: 'PPA',
      document_type: 'contractSigned',
      url: 'https://example.org/ppa.pdf',
      published_on: null,
      format: null,
      language: 'fr',
    },
  ],
};

describe('indexer: buildDocument', () => {
  it('produces exactly the fields of mappings/ppas.json', () => {
    expect(Object.keys(buildDocument(kahone)).sort()).to.deep.equal(
      Object.keys(mapping.mappings.properties).sort(),
    );
  });

  it('keeps display fields as they are and folds the search fields', () => {
    const document = buildDocument(kahone);
    expect(document.project_name).to.equal('Kahoné Solar');
    expect(document.developer).to.equal('Ærø Énergie / Łódź Power');
    expect(document.name_sort).to.equal('kahone solar');
    expect(document.name_folded).to.equal('kahone solar');
    expect(document.developer_folded).to.equal('aero energie / lodz power');
    expect(document.location_folded).to.equal('kaolack, senegal');
    expect(document.reference_code_folded).to.equal('sn-sol-2018-001');
    expect(document.active).to.equal(false);
    expect(document.risk_features).to.deep.equal(['government_guarantee', 'take_or_pay']);
  });

  it('writes the canonical forms of the name: numerals, abbreviations, punctuation, joined words', () => {
    const document = buildDocument({ ...kahone, project_name: "O'Neill Kafue PV II" });
    expect(document.name_canonical).to.equal('oneill kafue photovoltaic 2');
    expect(document.name_compact).to.equal('oneillkafuephotovoltaic2');
    expect(document.name_joined).to.include.members(['oneillkafue', 'kafuephotovoltaic', 'kafuepv', 'pvii']);
    // The canonical words' prefixes too: "Kafue Photo" suggests it.
    expect(document.name_prefixes).to.include.members(['photo', 'pv', "o'neill", 'oneill']);
  });

  it('derives every name form from one cut of the name, as the query side computes each form on its own', () => {
    // buildDocument folds and tokenises the name once; the API looks typed words up with the per-form functions.
    const names = [
      "O'Neill Kafue PV II",
      'São João Solar-PV 1,000.5 MW',
      'Ma’an P.E. HPP iv',
      'Łódź Straße Ærø CCGT',
      '𝒜lpha 𝒜𝒜𝒜𝒜𝒜𝒜 Solarpark',
      'Ｆｕｌｌ Ｗｉｄｔｈ Wind_Farm',
      `${'a'.repeat(30)} b`,
    ];
    for (const name of names) {
      const document = buildDocument({ ...kahone, project_name: name });
      expect(document.name_prefixes, name).to.deep.equal(wordPrefixes(`${name} ${document.name_canonical}`));
      expect(document.name_joined, name).to.deep.equal(joinedPairs(name));
      expect(document.name_dropped_letter, name).to.deep.equal(droppedLetterSpellings(name));
      expect(document.name_without_first_letter, name).to.deep.equal(withoutFirstLetter(name));
    }
  });

  it("writes what the PPA is: its technology's words and synonyms, its country's English names (issue 32)", () => {
    const document = buildDocument({ ...kahone, technology: 'hydro', country_code: 'CI' });
    expect(document.technology_words).to.include.members(['hydro', 'hydroelectric', 'hydropower']);
    expect(document.country_names).to.deep.equal(['cote d ivoire', 'ivory coast']);
    expect(buildDocument({ ...kahone, country_code: null }).country_names).to.deep.equal([]);
  });

  it('writes each name word of five letters or more without its first letter: a first letter dropped', () => {
    expect(
      buildDocument({ ...kahone, project_name: 'Tobel Hydro Park' }).name_without_first_letter,
    ).to.deep.equal(['obel', 'ydro']);
  });

  it('writes the words q is looked for among, each once, only those with a letter (did you mean, issue 69)', () => {
    const document = buildDocument({
      ...kahone,
      project_name: "O'Neill Kahoné PV 2",
      reference_code: 'SN-SOL-2018-001',
      country_code: 'CI',
    });
    expect(document.vocabulary).to.include.members([
      "o'neill",
      'oneill',
      'kahone',
      'pv',
      'photovoltaic',
      'aero',
      'energie',
      'lodz',
      'kaolack',
      'senegal',
      'sn',
      'sol',
      'solar',
      'ivoire',
      'ivory',
    ]);
    expect(document.vocabulary).to.not.include.members(['2', '2018', '001']);
    expect(document.vocabulary).to.deep.equal([...new Set(document.vocabulary)].sort());
  });

  it('name_sort keeps letters that only foldText rewrites (the contract sort key)', () => {
    const document = buildDocument({ ...kahone, project_name: 'Łódź Straße' });
    expect(document.name_sort).to.equal('łodz straße');
    expect(document.name_folded).to.equal('lodz strasse');
  });

  it('normalises timestamps to ISO UTC with Z', () => {
    const document = buildDocument(kahone);
    expect(document.published_at).to.equal('2024-03-01T12:00:00Z');
    expect(document.updated_at).to.equal('2024-06-02T08:30:00.250Z');
    expect(() => toUtcTimestamp('yesterday')).to.throw(/not a timestamp/);
  });

  it('gives every detail object all its keys (null when the source omits them) and [] for missing lists', () => {
    const document = buildDocument({ ...kahone, offtaker: null, versions: undefined, documents: undefined });
    expect(document.offtaker).to.deep.equal({ name: null, type: null });
    expect(document.contract).to.deep.equal({
      signed_date: '2018-05-15',
      term_years: 25,
      cod_date: null,
      currency: 'EUR',
      energy_rate_per_kwh: null,
      capacity_rate_per_kw_month: null,
    });
    expect(document.fiscal).to.deep.equal({
      annual_payment_obligation_usd: 4_900_000,
      guaranteed_amount_usd: null,
      termination_payment_usd: null,
    });
    expect(Object.keys(document.procurement)).to.have.length(7);
    expect(document.versions).to.deep.equal([]);
    expect(document.documents).to.deep.equal([]);
  });

  it('fills absent optional top-level values with null', () => {
    const { country_code: _c, financial_close_year: _y, risk_features: _r, ...bare } = kahone;
    const document = buildDocument(bare);
    expect(document.country_code).to.equal(null);
    expect(document.financial_close_year).to.equal(null);
    expect(document.risk_features).to.deep.equal([]);
  });
});
