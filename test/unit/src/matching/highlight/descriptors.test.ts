import { expect } from 'chai';
import {
  countryVocabulary,
  descriptorWords,
  technologyVocabulary,
} from '../../../../../src/matching/highlight/descriptors.js';
import { namePlanOf } from '../../../../../src/matching/highlight/queryPlan.js';

const technologyBits = (q: string, technology: string) => {
  const plan = namePlanOf(q, 'list');
  return descriptorWords(plan, plan.byTechnology, technology, technologyVocabulary);
};
const countryBits = (q: string, code: string) => {
  const plan = namePlanOf(q, 'list');
  return descriptorWords(plan, plan.byCountry, code, countryVocabulary);
};

describe('matching: words of q that name the technology or the country (highlight/descriptors.ts)', () => {
  it("reads the technology's words and synonyms, and the country's names cut into words", () => {
    expect(technologyVocabulary('hydro')).to.include.members(['hydro', 'hydropower']);
    expect(technologyVocabulary('oil_hfo')).to.include.members(['oil', 'hfo']);
    expect(countryVocabulary('CI')).to.include.members(['cote', 'd', 'ivoire']);
    expect(countryVocabulary('CI')).to.not.include("d'ivoire");
  });

  it('gives the words of q that name one, as typed, the word being typed also as its start', () => {
    expect(technologyBits('tobel hydropower', 'hydro')).to.equal(0b10);
    expect(technologyBits('tobel hydr', 'hydro')).to.equal(0b10);
    expect(technologyBits('hydr tobel', 'hydro')).to.equal(0);
    // No typo: a name that says the word matches it with one.
    expect(technologyBits('tobel hydrp', 'hydro')).to.equal(0);
    expect(countryBits('tobel switzerland', 'CH')).to.equal(0b10);
    // A word cut at its punctuation: every part must name a word of the vocabulary.
    expect(countryBits("d'ivoire solar", 'CI')).to.equal(0b01);
  });

  it('looks for a qualified word in its field alone, never in the descriptors', () => {
    expect(technologyBits('name:hydro', 'hydro')).to.equal(0);
    expect(technologyBits('hydro', 'hydro')).to.equal(1);
  });

  it("remembers a descriptor's bits in the answer's plan", () => {
    const plan = namePlanOf('solar', 'list');
    expect(descriptorWords(plan, plan.byTechnology, 'solar', technologyVocabulary)).to.equal(1);
    expect(plan.byTechnology.get('solar')).to.equal(1);
    expect(namePlanOf('solar', 'list').byTechnology.size).to.equal(0);
  });
});
