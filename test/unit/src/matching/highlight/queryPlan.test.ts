import { expect } from 'chai';
import {
  allowedIn,
  namePlanOf,
  writtenPlanOf,
  type QueryPlan,
} from '../../../../../src/matching/highlight/queryPlan.js';
import { JOINED_MIN_LETTERS } from '../../../../../src/matching/typoRules.js';

const texts = (forms: readonly { text: string }[]) => forms.map((form) => form.text);
const splitsOf = (plan: QueryPlan) =>
  plan.splits.map((split) => [split.compact.text, split.bits, split.last]);

describe('matching: q read once an answer (highlight/queryPlan.ts)', () => {
  it('reads each word in every form it is compared by: as typed, canonical, compact', () => {
    const plan = namePlanOf('Kafue PV', 'list');
    expect(plan.words.map((word) => texts(word.forms))).to.deep.equal([['kafue'], ['pv', 'photovoltaic']]);
    expect(plan.words.map((word) => texts(word.written))).to.deep.equal([['kafue'], ['pv']]);
    expect(plan.words.map((word) => word.compact.text)).to.deep.equal(['kafue', 'photovoltaic']);
    // Inner punctuation dropped, the token kept for the descriptors.
    const punctuated = namePlanOf("o'neill p.e.", 'list');
    expect(punctuated.words.map((word) => texts(word.forms))).to.deep.equal([['oneill'], ['pe']]);
    expect(punctuated.words.map((word) => word.tokens)).to.deep.equal([["o'neill"], ['p.e']]);
  });

  it('takes the last word as the one being typed, and every word of a plain q as looked for everywhere', () => {
    const plan = namePlanOf('kafue gorge sou', 'list');
    expect(plan.words.map((word) => word.last)).to.deep.equal([false, false, true]);
    expect(plan).to.include({ all: 0b111, allowed: 0b111, everywhere: 0b111, whole: 'kafue gorge sou' });
    expect(plan).to.include({ mode: 'list', rules: 'list', writtenOnly: false });
  });

  it('reads the runs of 2–3 plain words that may name one word, from JOINED_MIN_LETTERS letters', () => {
    const plan = namePlanOf('hydro electric kafuegorge', 'list');
    expect(splitsOf(plan)).to.deep.equal([
      ['hydroelectric', 0b011, false],
      ['hydroelectrickafuegorge', 0b111, true],
      ['electrickafuegorge', 0b110, true],
    ]);
    // Two words of two letters make no split: four letters together, too short to be a word of their own.
    expect(JOINED_MIN_LETTERS).to.be.above(4);
    expect(namePlanOf('ab cd', 'list').splits).to.deep.equal([]);
    expect(plan.joiningLengths).to.deep.equal([5, 8, 10]);
    expect(plan.joins).to.equal(true);
  });

  it('reads operators: phrases marked whole, qualified words in their field, left-out words not looked for', () => {
    const plan = namePlanOf('"kafue gorge" -solar developer:zesco hydro name:"gorge dam"', 'list');
    expect(plan.phrases).to.deep.equal([
      { written: ['kafue', 'gorge'], only: undefined },
      { written: ['gorge', 'dam'], only: 'project_name' },
    ]);
    expect(plan.words.map((word) => [word.compact.text, word.only])).to.deep.equal([
      ['hydro', undefined],
      ['zesco', 'developer'],
    ]);
    expect(plan.all).to.equal(0b11);
    expect(plan.everywhere).to.equal(0b01);
    expect(plan.allowed).to.equal(0b01);
    expect(allowedIn(plan.words, 'developer')).to.equal(0b11);
    // A pasted code or name as a whole (issue 69): the search looks for it as typed too.
    expect(plan.whole).to.equal('"kafue gorge" -solar developer:zesco hydro name:"gorge dam"');
    expect(plan.pastedNames).to.deep.equal(['"kafue gorge" -solar developer:zesco hydro name:"gorge dam"']);
  });

  it('reads suggest as plain words whatever they hold', () => {
    const plan = namePlanOf('"kafue gorge" -y', 'suggest');
    expect(plan.phrases).to.deep.equal([]);
    expect(plan.words.map((word) => word.compact.text)).to.deep.equal(['kafue', 'gorge', 'y']);
    expect(plan.rules).to.equal('suggest');
  });

  it('reads at most 12 words: one bit each of a 32-bit number', () => {
    const plan = namePlanOf(Array.from({ length: 20 }, (_, index) => `w${index}`).join(' '), 'list');
    expect(plan.words).to.have.length(12);
    expect(plan.all).to.equal(0xfff);
  });

  it('gives the plain-word prefilter every form of every word and of every split', () => {
    const plan = namePlanOf('Kafue PV', 'list');
    expect(plan.typed.map((form) => [form.letters, form.last])).to.deep.equal([
      [5, false],
      [2, true],
      [12, true],
      [17, true],
    ]);
    expect(plan.joining.map((form) => form.letters)).to.deep.equal([5, 12]);
  });

  it("makes each plan's memo its own: a written plan's, another answer's, are not the name's", () => {
    const plan = namePlanOf('kafue', 'list');
    const again = namePlanOf('kafue', 'list');
    const written = writtenPlanOf(plan, plan.allowed, 'text');
    expect(again.named).to.not.equal(plan.named);
    expect(written.named).to.not.equal(plan.named);
    expect(written).to.include({ rules: 'text', writtenOnly: true, joins: false });
    expect(written.splits).to.deep.equal([]);
    // The words and the prefilter are the name's.
    expect(written.words).to.equal(plan.words);
    expect(written.typed).to.equal(plan.typed);
  });
});
