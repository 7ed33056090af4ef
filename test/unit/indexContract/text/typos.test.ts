import { expect } from 'chai';
import { foldText } from '../../../../indexContract/text/fold.js';
import { standardTokens } from '../../../../indexContract/text/tokenizer.js';
import {
  droppedLetterSpellings,
  droppedLetterSpellingsOfTokens,
  TYPO_MIN_LETTERS,
  withoutFirstLetter,
  withoutFirstLetterOfTokens,
} from '../../../../indexContract/text/typos.js';

describe('text: droppedLetterSpellings (name_dropped_letter)', () => {
  it('drops each letter but the first from folded name words of five letters or more', () => {
    expect(droppedLetterSpellings('Solar Park')).to.deep.equal(['slar', 'soar', 'solr', 'sola']);
    expect(droppedLetterSpellings('Côte II 2024')).to.deep.equal([]);
    expect(droppedLetterSpellings('Łódźa')).to.include('ldza');
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

describe('text: withoutFirstLetter (name_without_first_letter)', () => {
  it('drops the first letter of folded name words of five letters or more, by code point', () => {
    expect(withoutFirstLetter('Solar Park')).to.deep.equal(['olar']);
    expect(withoutFirstLetter('Łódź Północ Wind')).to.deep.equal(['olnoc']);
    expect(withoutFirstLetter('Côte II 2024 Kpone-2')).to.deep.equal(['pone']);
    // Deseret: two UTF-16 units a letter (folded to lowercase first).
    expect(withoutFirstLetter('𐐀𐐁𐐂𐐃𐐄 Farm')).to.deep.equal([[...foldText('𐐁𐐂𐐃𐐄')].join('')]);
  });
});

describe('text: the words spelled with a letter dropped (typos.ts)', () => {
  it('spells the name words of TYPO_MIN_LETTERS letters or more, letters only, each part of a token apart', () => {
    const shortest = 'b'.repeat(TYPO_MIN_LETTERS);
    expect(droppedLetterSpellings(shortest.slice(1))).to.deep.equal([]);
    expect(droppedLetterSpellings(shortest)).to.deep.equal([shortest.slice(1)]);
    expect(withoutFirstLetter(shortest.slice(1))).to.deep.equal([]);
    // "O'Neill": the parts o and neill; neill is spelled, the whole token is not a word of letters.
    expect(withoutFirstLetter("O'Neill Farms")).to.deep.equal(['eill', 'arms']);
    expect(droppedLetterSpellings('Solar2 Parks_x')).to.deep.equal(['prks', 'paks', 'pars', 'park']);
  });

  it('spells a name already cut into folded tokens as it spells the text', () => {
    for (const name of ["O'Neill Solar Park", 'Łódź Północ', 'Kafue Gorge 2', 'Straße Kraftwerk']) {
      const tokens = standardTokens(foldText(name));
      expect(droppedLetterSpellingsOfTokens(tokens), name).to.deep.equal(droppedLetterSpellings(name));
      expect(withoutFirstLetterOfTokens(tokens), name).to.deep.equal(withoutFirstLetter(name));
    }
  });
});
