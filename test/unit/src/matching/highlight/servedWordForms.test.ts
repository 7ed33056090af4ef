import { expect } from 'chai';
import { ServedWordForms } from '../../../../../src/matching/highlight/servedWordForms.js';

const served = new ServedWordForms();
const formsOf = (text: string) => served.formsOf(text);

const texts = (forms: readonly { text: string }[]) => forms.map((form) => form.text);

describe("matching: a served word's forms (highlight/servedWordForms.ts)", () => {
  it('reads a word as written (folded, inner punctuation dropped), compact and canonical', () => {
    expect(texts(formsOf('Solar').targets)).to.deep.equal(['solar']);
    const initials = formsOf('P.E');
    expect([initials.written.text, initials.compact.text]).to.deep.equal(['pe', 'pe']);
    const numeral = formsOf('II');
    expect(texts(numeral.targets)).to.deep.equal(['ii', '2']);
    const abbreviation = formsOf('HPP');
    expect(abbreviation.compact.text).to.equal('hydropowerplant');
    expect(texts(abbreviation.targets)).to.deep.equal(['hpp', 'hydropowerplant', 'hydro', 'power', 'plant']);
    expect(formsOf('São').written.text).to.equal('sao');
  });

  it("keeps a word's forms across answers, and nothing of any answer in them", () => {
    const forms = formsOf('Kafue');
    expect(formsOf('Kafue')).to.equal(forms);
    expect(Object.keys(forms).sort()).to.deep.equal(['compact', 'targets', 'written']);
    served.clear();
    const again = formsOf('Kafue');
    expect(again).to.not.equal(forms);
    expect(again).to.deep.equal(forms);
  });
});
