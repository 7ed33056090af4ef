import { expect } from 'chai';
import { DistanceRows, editDistance } from '../../../../src/matching/editDistance.js';
import { formOf } from '../../../../src/matching/form.js';
import { names } from '../../../../src/matching/names.js';

/** The distance by the textbook table, for comparison: optimal string alignment over code points. */
function referenceDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const table = Array.from({ length: x.length + 1 }, (_, i) =>
    Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const row = table[i]!;
      row[j] = Math.min(
        table[i - 1]![j]! + 1,
        row[j - 1]! + 1,
        table[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        row[j] = Math.min(row[j]!, table[i - 2]![j - 2]! + 1);
      }
    }
  }
  return table[x.length]![y.length]!;
}

describe('matching: typed words against value words (names.ts, editDistance.ts)', () => {
  const rows = new DistanceRows();

  it('gives the textbook distance, capped at limit + 1, astral letters as one', () => {
    const words = [
      'kafue',
      'kafeu',
      'kaffue',
      'afue',
      'gorge',
      'gorgee',
      'sao',
      'são',
      '𝒜bc',
      'abc',
      'a𝒜c',
      '',
    ];
    for (const a of words) {
      for (const b of words) {
        for (const limit of [1, 2]) {
          expect(editDistance(a, b, limit), `${a} ~ ${b} within ${limit}`).to.equal(
            Math.min(referenceDistance(a, b), limit + 1),
          );
        }
      }
    }
  });

  it('reuses its tables for words longer than they were (and for shorter ones after)', () => {
    const long = 'a'.repeat(200);
    expect(editDistance(long, `${long}b`, 1)).to.equal(1);
    expect(editDistance('kafue', 'kafeu', 2)).to.equal(1);
  });

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
});
