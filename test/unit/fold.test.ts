import { expect } from 'chai';
import { foldText, nameSortKey } from '../../src/text/fold.js';
import { canonicalUtc } from '../../src/text/timestamp.js';
import { droppedLetterSpellings } from '../../src/text/typos.js';

describe('text folding', () => {
  it('folds accents and case the same way for the index and the query', () => {
    expect(foldText('São João')).to.equal('sao joao');
    expect(foldText('SAO JOAO')).to.equal('sao joao');
    expect(foldText('Łódź Straße Ærø')).to.equal('lodz strasse aero');
  });

  it('builds the contract sort key: NFKD, marks removed, lowercased, nothing else', () => {
    expect(nameSortKey('Éolien du Nord')).to.equal('eolien du nord');
    expect(nameSortKey('Straße')).to.equal('straße');
    expect(nameSortKey('ﬁ ligature')).to.equal('fi ligature');
  });
});

describe('text: fast paths agree with the general ones', () => {
  const slowSortKey = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

  it('ASCII text folds by lowercasing alone, exactly as NFKD would', () => {
    let ascii = '';
    for (let code = 0; code < 128; code++) ascii += String.fromCharCode(code);
    expect(nameSortKey(ascii)).to.equal(slowSortKey(ascii));
    expect(foldText(`Mount ${ascii} SOLAR`)).to.equal(slowSortKey(`Mount ${ascii} SOLAR`));
  });

  it('drops letters by code point, also outside the BMP', () => {
    // The general definition: every folded word of 5+ letters, each code point but the first dropped once.
    const reference = (text: string) => {
      const spellings = new Set<string>();
      for (const word of foldText(text).split(/[^\p{L}\p{N}]+/u)) {
        const letters = [...word];
        if (!/^\p{L}{5,}$/u.test(word)) continue;
        for (let dropped = 1; dropped < letters.length; dropped++)
          spellings.add(letters.filter((_, index) => index !== dropped).join(''));
      }
      return [...spellings];
    };
    for (const name of [
      'Ngong Hills Wind Farm',
      'Łódź Solar',
      'Ｋaｍｉ Power',
      '𝐀𝐁𝐂𝐃𝐄 Hydro',
      'Straße Kraftwerk 2',
      '𐐀𐐁𐐂𐐃𐐄𐐅 Farm',
    ]) {
      expect(droppedLetterSpellings(name), name).to.deep.equal(reference(name));
    }
    expect(droppedLetterSpellings('𐐀𐐁𐐂𐐃𐐄 Farm')).to.have.length(4); // Deseret: two UTF-16 units a letter
  });
});

describe('text: canonical UTC timestamps', () => {
  const viaDate = (value: string) => new Date(value).toISOString().replace('.000Z', 'Z');

  it('keeps the canonical form and converts the others through Date, with the same result', () => {
    const samples = [
      '2024-03-01T12:00:00Z',
      '2024-03-01T12:00:00.000Z',
      '2024-03-01T12:00:00.250Z',
      '2024-03-01T14:00:00+02:00',
      '2024-03-01T12:00:00.5Z',
      '2024-02-29T23:59:59Z',
      '1999-12-31T00:00:00-05:00',
    ];
    for (const sample of samples) expect(canonicalUtc(sample), sample).to.equal(viaDate(sample));
  });

  it('rejects what is not a timestamp, and days that the month does not have', () => {
    expect(canonicalUtc('yesterday')).to.equal(null);
    expect(canonicalUtc('2023-02-29T00:00:00Z')).to.equal(null);
    expect(canonicalUtc('2024-04-31T00:00:00Z')).to.equal(null);
    expect(canonicalUtc('2024-02-29T00:00:00Z')).to.equal('2024-02-29T00:00:00Z');
  });
});
