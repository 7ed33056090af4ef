import { expect } from 'chai';
import { DistanceRows } from '../../../../../src/matching/editDistance.js';
import { formOf } from '../../../../../src/matching/form.js';
import { plainLetterBits } from '../../../../../src/matching/highlight/plainWord.js';
import { mayName, prefilterForm } from '../../../../../src/matching/highlight/prefilter.js';
import { names } from '../../../../../src/matching/names.js';
import type { TypoRules } from '../../../../../src/matching/typoRules.js';

/** Random words over a few letters (so that many pairs are near), 1 to 11 letters. */
function randomWords(count: number, letters: string, seed: number): string[] {
  let state = seed;
  const next = (below: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % below;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + next(11) }, () => letters[next(letters.length)]!).join(''),
  );
}

/** Whether the prefilter of one typed form lets a served plain word through. */
function letsThrough(typed: string, last: boolean, rules: TypoRules, served: string): boolean {
  const prefilter = [prefilterForm(formOf(typed), last, rules)];
  return mayName(
    prefilter,
    served.length,
    plainLetterBits(served, 0, served.length),
    served.charCodeAt(0) | 32,
  );
}

describe('matching: the plain-word prefilter (highlight/prefilter.ts)', () => {
  it('lets through every plain word a form of q names (it only rules words out)', () => {
    const rows = new DistanceRows();
    const typedWords = randomWords(120, 'aeklorsu', 1);
    const servedWords = randomWords(120, 'aeklorsuAEKLORSU', 2);
    let named = 0;
    for (const rules of ['list', 'suggest', 'text', 'exact'] as const) {
      for (const typed of typedWords) {
        for (const served of servedWords) {
          for (const last of [false, true]) {
            if (!names(formOf(typed), formOf(served.toLowerCase()), last, rules, rows)) continue;
            named++;
            expect(
              letsThrough(typed, last, rules, served),
              `${typed} ~ ${served} (${rules}, last ${last})`,
            ).to.equal(true);
          }
        }
      }
    }
    expect(named).to.be.above(1000);
  });

  it('rules out words of other lengths or letters than the typos allow', () => {
    expect(letsThrough('solar', false, 'list', 'Solar')).to.equal(true);
    expect(letsThrough('solar', false, 'list', 'Solor')).to.equal(true);
    expect(letsThrough('solar', false, 'list', 'Kafue')).to.equal(false);
    expect(letsThrough('solar', false, 'list', 'Solarparkxx')).to.equal(false);
    expect(letsThrough('sol', false, 'exact', 'Sol')).to.equal(true);
    expect(letsThrough('sol', false, 'exact', 'Sola')).to.equal(false);
    // The word being typed: the start of a longer word, the first letter as typed.
    expect(letsThrough('sol', true, 'exact', 'Solarparkxx')).to.equal(true);
    expect(letsThrough('sol', true, 'exact', 'Kolarparkxx')).to.equal(false);
  });

  it('looks only at forms longer than minLetters (a join far longer than either word)', () => {
    const prefilter = [prefilterForm(formOf('kafue'), false, 'list')];
    const bits = plainLetterBits('kafue', 0, 5);
    expect(mayName(prefilter, 5, bits, 107)).to.equal(true);
    expect(mayName(prefilter, 5, bits, 107, 5)).to.equal(false);
  });
});
