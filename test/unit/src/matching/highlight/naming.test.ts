import { expect } from 'chai';
import { DistanceRows } from '../../../../../src/matching/editDistance.js';
import { joiningThree, joiningWords, namingWords } from '../../../../../src/matching/highlight/naming.js';
import { namePlanOf, writtenPlanOf } from '../../../../../src/matching/highlight/queryPlan.js';
import { ServedWordForms } from '../../../../../src/matching/highlight/servedWordForms.js';

const served = new ServedWordForms();
const formsOf = (text: string) => served.formsOf(text);

const rows = new DistanceRows();
const naming = (q: string, word: string, mode: 'list' | 'suggest' = 'list') =>
  namingWords(namePlanOf(q, mode), formsOf(word), rows);

describe('matching: which words of q name a served word (highlight/naming.ts)', () => {
  it('gives the bits of the words of q that name it alone, by any of its forms', () => {
    expect(naming('kafue gorge', 'Gorge')).to.equal(0b10);
    expect(naming('kafeu gorge', 'Kafue')).to.equal(0b01);
    expect(naming('kafue 2', 'II')).to.equal(0b10);
    expect(naming('hydro pv', 'Photovoltaic')).to.equal(0b10);
    expect(naming('solar', 'Kafue')).to.equal(0);
  });

  it('gives the bits of 2–3 words of q that name one word split', () => {
    expect(naming('tobel hydro electric', 'Hydroelectric')).to.equal(0b110);
    expect(naming('hydro electric', 'Electric')).to.equal(0b10);
  });

  it("remembers a word's bits in its plan only: another answer's q, or another field's rules, are their own", () => {
    const plan = namePlanOf('kafue', 'list');
    const word = formsOf('Kafue');
    expect(namingWords(plan, word, rows)).to.equal(1);
    expect(plan.named.get(word)).to.equal(1);
    // Another answer, another q, the same served word: nothing of the first answer shows.
    const other = namePlanOf('gorge', 'list');
    expect(namingWords(other, word, rows)).to.equal(0);
    expect(namingWords(plan, word, rows)).to.equal(1);
    // The developer's plan compares by the fuzziness alone, with its own memo: "kafu" (not the word being typed)
    // names "Kafue" in the name (a dropped letter) but not in the developer (four letters: no typo).
    const typed = namePlanOf('kafu x', 'list');
    const developer = writtenPlanOf(typed, typed.allowed, 'text');
    const kafue = formsOf('Kafue');
    expect(namingWords(typed, kafue, rows)).to.equal(0b01);
    expect(namingWords(developer, kafue, rows)).to.equal(0);
    expect(namingWords(typed, kafue, rows)).to.equal(0b01);
  });

  it('gives the words of q that join two adjacent served words, as typed or with their typos', () => {
    const plan = namePlanOf('kafuegorge dam', 'list');
    expect(joiningWords(plan, formsOf('Kafue'), formsOf('Gorge'), rows)).to.equal(0b01);
    expect(joiningWords(namePlanOf('kafuegorhe', 'list'), formsOf('Kafue'), formsOf('Gorge'), rows)).to.equal(
      1,
    );
    // Not one of the two words with a typo: a joining word is far longer than either.
    expect(joiningWords(namePlanOf('kafuee', 'list'), formsOf('Kafue'), formsOf('Gorge'), rows)).to.equal(0);
    expect(joiningWords(plan, formsOf('Gorge'), formsOf('Kafue'), rows)).to.equal(0);
    // The canonical forms join too: "kafuephotovoltaic" for "Kafue PV".
    expect(
      joiningWords(namePlanOf('kafuephotovoltaic', 'list'), formsOf('Kafue'), formsOf('PV'), rows),
    ).to.equal(1);
  });

  it('gives the words of q that, as typed, are three adjacent served words written as one', () => {
    const plan = namePlanOf('lower kafuegorgedam', 'list');
    expect(joiningThree(plan, formsOf('Kafue'), formsOf('Gorge'), formsOf('Dam'))).to.equal(0b10);
    expect(joiningThree(plan, formsOf('Kafue'), formsOf('Gorge'), formsOf('Dams'))).to.equal(0);
  });
});
