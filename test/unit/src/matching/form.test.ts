import { expect } from 'chai';
import { bitCount, formOf, MAX_UNITS_PER_LETTER, missingLetters } from '../../../../src/matching/form.js';

/** Set bits counted by the bits' string. */
const referenceCount = (bits: number): number =>
  [...(bits >>> 0).toString(2)].filter((bit) => bit === '1').length;

describe('matching: a word in one of its forms (form.ts)', () => {
  it('counts letters by code point, and tells a word with a letter outside the BMP', () => {
    expect(formOf('kafue')).to.include({ text: 'kafue', letters: 5, astral: false });
    expect(formOf('𝒜bc')).to.include({ letters: 3, astral: true });
    expect(formOf('')).to.include({ letters: 0, astral: false, letterBits: 0 });
    expect('𝒜'.length).to.equal(MAX_UNITS_PER_LETTER);
  });

  it('puts each letter in its bucket (unit mod 32): the same letters in any order, one bucket each', () => {
    expect(formOf('kafue').letterBits).to.equal(formOf('eufak').letterBits);
    expect(formOf('aa').letterBits).to.equal(formOf('a').letterBits);
    expect(bitCount(formOf('kafue').letterBits)).to.equal(5);
    // "a" (97) and "A" (65) share a bucket; "b" does not.
    expect(formOf('A').letterBits).to.equal(formOf('a').letterBits);
    expect(formOf('b').letterBits).to.not.equal(formOf('a').letterBits);
  });

  it('counts set bits of any 32-bit number, the sign bit included', () => {
    for (const bits of [
      0,
      1,
      3,
      0x55555555,
      0x7fffffff,
      -1,
      -2147483648,
      0x80000001 | 0,
      1 << 31,
      12345678,
    ]) {
      expect(bitCount(bits), String(bits)).to.equal(referenceCount(bits));
    }
    let seed = 7;
    for (let n = 0; n < 2000; n++) {
      seed = (seed * 1103515245 + 12345) | 0;
      expect(bitCount(seed)).to.equal(referenceCount(seed));
    }
  });

  it('counts the letters of a typed word in no bucket of another', () => {
    expect(missingLetters(formOf('solor'), formOf('solar').letterBits)).to.equal(0);
    expect(missingLetters(formOf('soxor'), formOf('solar').letterBits)).to.equal(1);
    expect(missingLetters(formOf('xyz'), formOf('solar').letterBits)).to.equal(3);
  });
});
