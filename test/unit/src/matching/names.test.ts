import { expect } from 'chai';
import { DistanceRows, editDistance } from '../../../../src/matching/editDistance.js';
import { formOf } from '../../../../src/matching/form.js';
import { MAX_UNITS_APART, names } from '../../../../src/matching/names.js';
import { allowedTypos, MAX_TYPOS, type TypoRules } from '../../../../src/matching/typoRules.js';

/** Random words over a few letters (so that many pairs are near), 1 to 12 letters, some with an astral letter. */
function randomWords(count: number): string[] {
  const letters = ['a', 'b', 'e', 'k', 'o', 'r', 's', 'u', '𝒜'];
  let seed = 20261130;
  const next = (below: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % below;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + next(12) }, () => letters[next(letters.length)]!).join(''),
  );
}

describe('matching: typed words against value words (names.ts)', () => {
  const rows = new DistanceRows();

  it('lets the letters a word holds rule pairs out only where the distance would too', () => {
    // Same letters, other order: the letter buckets agree, the distance decides.
    expect(names(formOf('kafeu'), formOf('kafue'), false, 'list', rows)).to.equal(true);
    // One letter the target lacks, one typo allowed (five letters): named.
    expect(names(formOf('solor'), formOf('solar'), false, 'list', rows)).to.equal(true);
    // Two letters the target lacks, one typo allowed: not named.
    expect(names(formOf('soxor'), formOf('solar'), false, 'list', rows)).to.equal(false);
    // Eight letters: two typos.
    expect(names(formOf('gorgexxe'), formOf('gorgeate'), false, 'list', rows)).to.equal(true);
  });

  it('names the start of a word with one typo only for the word being typed, the first letter as typed', () => {
    expect(names(formOf('kafy'), formOf('kafuegorge'), true, 'suggest', rows)).to.equal(true);
    expect(names(formOf('kafy'), formOf('kafuegorge'), false, 'suggest', rows)).to.equal(false);
    expect(names(formOf('xafu'), formOf('kafuegorge'), true, 'suggest', rows)).to.equal(false);
    // An astral letter is one letter: "𝒜fue" starts "𝒜fuegorge" with one typo ("𝒜fux").
    expect(names(formOf('𝒜fux'), formOf('𝒜fuegorge'), true, 'suggest', rows)).to.equal(true);
  });

  it('names a word that is not being typed exactly when it is equal or within the typos its rules allow', () => {
    const words = randomWords(160);
    for (const rules of ['list', 'suggest', 'text', 'exact'] as const satisfies readonly TypoRules[]) {
      for (const a of words) {
        for (const b of words) {
          const typed = formOf(a);
          const target = formOf(b);
          const typos = allowedTypos(typed.letters, target.letters, rules);
          const expected = a === b || (typos > 0 && editDistance(a, b, MAX_TYPOS) <= typos);
          expect(names(typed, target, false, rules, rows), `${a} ~ ${b} (${rules})`).to.equal(expected);
        }
      }
    }
  });

  it('rules out words further apart than MAX_UNITS_APART, but for the start of a longer word being typed', () => {
    const typed = formOf('solarpa');
    const longer = formOf(`solarpark${'x'.repeat(MAX_UNITS_APART)}`);
    expect(names(typed, longer, false, 'list', rows)).to.equal(false);
    expect(names(typed, longer, true, 'list', rows)).to.equal(true);
  });
});
