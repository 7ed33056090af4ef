import { expect } from 'chai';
import { formOf } from '../../../../../src/matching/form.js';
import { plainLetterBits } from '../../../../../src/matching/highlight/plainWord.js';

const bitsOf = (word: string) => plainLetterBits(`  ${word} `, 2, 2 + word.length);

describe('matching: plain words of a served value (highlight/plainWord.ts)', () => {
  it('reads the letter buckets of ASCII letters and digits in place, as its lowercase form has them', () => {
    for (const word of ['Solar', 'KAFUE', 'gorge', '2001', 'Unit3']) {
      expect(bitsOf(word), word).to.equal(formOf(word.toLowerCase()).letterBits);
    }
  });

  it('reads no other word as plain: numerals, abbreviations, _, letters past ASCII', () => {
    for (const word of ['II', 'iv', 'PV', 'Hpp', 'CCGT', 'x_y', 'Côte', 'P.E'])
      expect(bitsOf(word), word).to.equal(-1);
    // Longer than any abbreviation, or a word that only starts like one: plain.
    expect(bitsOf('PVs')).to.be.at.least(0);
    expect(bitsOf('Photovoltaic')).to.be.at.least(0);
  });
});
