// The forms of a pasted q compared with a name's folded text as a whole.
import { expect } from 'chai';
import { pastedNameForms } from '../../../../src/matching/pastedName.js';

describe('matching/pastedName', () => {
  it('folds and trims q, and adds the form with its runs of spaces made one only when it differs', () => {
    expect(pastedNameForms('  PLTU -Jeneponto I & II ')).to.deep.equal(['pltu -jeneponto i & ii']);
    expect(pastedNameForms('"Blue  Lake" GÉS')).to.deep.equal(['"blue  lake" ges', '"blue lake" ges']);
  });
});
