import { expect } from 'chai';
import { foldText } from '../../../../indexContract/text/fold.js';
import {
  cutWords,
  foldedWords,
  newWordCuts,
  standardTokens,
  tokenParts,
} from '../../../../indexContract/text/tokenizer.js';
import { plainLetterBits } from '../../../../src/matching/highlight/plainWord.js';

/**
 * Elasticsearch's standard tokenizer as a pattern, the reference the hand cut is held to: runs of letters, digits,
 * marks and _, joined by ' ’ . : · before a word unit and by , ; between digits.
 */
const STANDARD_TOKEN = /[\p{L}\p{N}\p{M}_]+(?:(?:['’.:·]|(?<=\p{N})[,;](?=\p{N}))[\p{L}\p{N}\p{M}_]+)*/gu;

const cuts = newWordCuts();

/** The words of `value` as cut: [text, whether it is read as a plain word]. */
function cut(value: string): [string, boolean][] {
  const count = cutWords(value, cuts);
  return Array.from({ length: count }, (_, k): [string, boolean] => [
    value.slice(cuts.starts[k], cuts.ends[k]),
    plainLetterBits(value, cuts.starts[k]!, cuts.ends[k]!) >= 0,
  ]);
}

describe('the tokenizer (indexContract/text/tokenizer.ts), and plain words (src/matching/highlight/plainWord.ts)', () => {
  it('cuts an ASCII value where it cuts the same words with an accent', () => {
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
    expect(plainLetterBits('SOLAR', 0, 5)).to.equal(plainLetterBits('solar', 0, 5));
    expect(plainLetterBits('solar', 0, 5)).to.not.equal(0);
  });

  it("cuts the words the standard tokenizer's pattern cuts, at the same offsets, over random text of every kind of unit", () => {
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
      expect(words, JSON.stringify(value)).to.deep.equal(value.match(STANDARD_TOKEN) ?? []);
      expect(standardTokens(value), JSON.stringify(value)).to.deep.equal(words);
      // Offsets: each word is the value's own slice, in order, never overlapping.
      for (let k = 1; k < words.length; k++) expect(cuts.starts[k]).to.be.at.least(cuts.ends[k - 1]!);
    }
  });

  it('takes a token apart at what it joined across, and at its marks and _: its runs of letters and digits', () => {
    expect(tokenParts(["o'neill", 'p.e', '1,000;5', 'x_y', 'solar'])).to.deep.equal([
      'o',
      'neill',
      'p',
      'e',
      '1',
      '000',
      '5',
      'x',
      'y',
      'solar',
    ]);
    expect(foldedWords("Côte d'Ivoire")).to.deep.equal(['cote', 'd', 'ivoire']);
    expect(foldedWords(' -- ')).to.deep.equal([]);
  });

  it('gives as folded words the runs of letters and digits of the folded text, over random text of every kind of unit', () => {
    const units = [
      ..."aZ09_ .,;:'’·-/",
      'é',
      'ß',
      'Ł',
      '\u0301',
      '٣',
      '𝟏',
      '𐐷',
      '\ud800',
      '\udc00',
      'ﬁ',
      'İ',
      'Ⅻ',
    ];
    let seed = 66;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 3000; run++) {
      let value = '';
      const length = Math.floor(next() * 14);
      for (let i = 0; i < length; i++) value += units[Math.floor(next() * units.length)]!;
      const runs = foldText(value)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean);
      expect(foldedWords(value), JSON.stringify(value)).to.deep.equal(runs);
    }
  });
});
