import { expect } from 'chai';
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

  it('reads the letters of plain words only: not of abbreviations, numerals or joined words, nor in a value past ASCII', () => {
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
    // A value with a unit past ASCII is cut by the tokenizer's pattern: no word of it is read as plain.
    expect(cut('Solar Côte')).to.deep.equal([
      ['Solar', false],
      ['Côte', false],
    ]);
  });

  it('gives a plain word the letter buckets its lowercase form has (a letter in either case is one bucket)', () => {
    cutServedValue('SOLAR solar');
    expect(SERVED_WORDS.plainLetters[0]).to.equal(SERVED_WORDS.plainLetters[1]);
    expect(SERVED_WORDS.plainLetters[0]).to.not.equal(0);
  });
});
