import { expect } from 'chai';
import { standardTokens } from '../../../../indexContract/text/prefixes.js';
import { cutServedValue, SERVED_WORDS } from '../../../../src/present/servedWords.js';

/** The words of `value` as cut: [text, whether it is read as a plain word]. */
function cut(value: string): [string, boolean][] {
  const count = cutServedValue(value);
  return Array.from({ length: count }, (_, k): [string, boolean] => [
    value.slice(SERVED_WORDS.starts[k], SERVED_WORDS.ends[k]),
    SERVED_WORDS.plainLetters[k]! >= 0,
  ]);
}

describe('api present: served values cut into words (servedWords.ts)', () => {
  it('cuts an ASCII value by hand where the tokenizer pattern cuts the same words with an accent', () => {
    for (const first of ['Tana', 'Tána']) {
      const value = `${first} P.E. 1,000;5 A,B x:y O'Neill_2 end. last'`;
      expect(
        cut(value).map(([text]) => text),
        value,
      ).to.deep.equal([first, 'P.E', '1,000;5', 'A', 'B', 'x:y', "O'Neill_2", 'end', 'last']);
    }
  });

  it('reads the letters of plain words only: not of abbreviations, numerals, joined words or words past ASCII', () => {
    expect(cut('Solar 2001 Ltd PV II hpp x_y P.E')).to.deep.equal([
      ['Solar', true],
      ['2001', true],
      ['Ltd', true],
      ['PV', false],
      ['II', false],
      ['hpp', false],
      ['x_y', false],
      ['P.E', false],
    ]);
    // In a value with letters past ASCII, its ASCII words are as plain as anywhere.
    expect(cut('Solar Côte 𝟏,5 Ltd')).to.deep.equal([
      ['Solar', true],
      ['Côte', false],
      ['𝟏,5', false],
      ['Ltd', true],
    ]);
  });

  it('gives a plain word the letter buckets its lowercase form has (a letter in either case is one bucket)', () => {
    cutServedValue('SOLAR solar');
    expect(SERVED_WORDS.plainLetters[0]).to.equal(SERVED_WORDS.plainLetters[1]);
    expect(SERVED_WORDS.plainLetters[0]).to.not.equal(0);
  });

  it("cuts the words the tokenizer's pattern cuts, at the same offsets, over random text of every kind of unit", () => {
    // Letters, digits (ASCII, Arabic-Indic, astral), marks, every joiner, spaces, punctuation, lone surrogates.
    const units = [
      ..."aZ09_ .,;:'’·-/()",
      'é',
      'ß',
      'ư',
      '\u0301',
      '٣',
      '𝟏',
      '𐐷',
      '😀',
      '\ud800',
      '\udc00',
      '\u00a0',
      'Ⅻ',
      '¼',
    ];
    let seed = 46;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 3000; run++) {
      let value = '';
      const length = Math.floor(next() * 14);
      for (let i = 0; i < length; i++) value += units[Math.floor(next() * units.length)]!;
      const words = cut(value).map(([text]) => text);
      expect(words, JSON.stringify(value)).to.deep.equal(standardTokens(value));
      // Offsets: each word is the value's own slice, in order, never overlapping.
      for (let k = 1; k < words.length; k++)
        expect(SERVED_WORDS.starts[k]).to.be.at.least(SERVED_WORDS.ends[k - 1]!);
    }
  });
});
