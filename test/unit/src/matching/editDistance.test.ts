import { expect } from 'chai';
import {
  boundedDistance,
  boundedStartDistance,
  DistanceRows,
  editDistance,
  startsWithTypos,
  withinTypos,
} from '../../../../src/matching/editDistance.js';
import { formOf } from '../../../../src/matching/form.js';

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

const WORDS = ['kafue', 'kafeu', 'kaffue', 'afue', 'gorge', 'gorgee', 'sao', 'são', '𝒜bc', 'abc', 'a𝒜c', ''];

describe('matching: the bounded edit distance (editDistance.ts)', () => {
  it('gives the textbook distance, capped at limit + 1, astral letters as one', () => {
    for (const a of WORDS) {
      for (const b of WORDS) {
        for (const limit of [1, 2]) {
          expect(editDistance(a, b, limit), `${a} ~ ${b} within ${limit}`).to.equal(
            Math.min(referenceDistance(a, b), limit + 1),
          );
        }
      }
    }
  });

  it("judges each pair on the answer's rows alike, whatever pairs ran on them before", () => {
    const rows = new DistanceRows();
    const long = 'a'.repeat(200);
    expect(withinTypos(rows, formOf(long), formOf(`${long}b`), 1)).to.equal(true);
    expect(rows.xs.length).to.be.at.least(200);
    for (const a of WORDS) {
      for (const b of WORDS) {
        const within = referenceDistance(a, b) <= 1;
        expect(withinTypos(rows, formOf(a), formOf(b), 1), `${a} ~ ${b}`).to.equal(within);
        // The same pair on fresh rows.
        expect(withinTypos(new DistanceRows(), formOf(a), formOf(b), 1)).to.equal(within);
      }
    }
  });

  it('tells a word within its typos of the start of another: some start one letter shorter to one longer', () => {
    const rows = new DistanceRows();
    const startsWithin = (typed: string, target: string, typos: number) => {
      const letters = [...target];
      const n = [...typed].length;
      for (let cut = Math.max(1, n - typos); cut <= Math.min(letters.length, n + typos); cut++) {
        if (referenceDistance(typed, letters.slice(0, cut).join('')) <= typos) return true;
      }
      return false;
    };
    for (const [typed, target] of [
      ['kafy', 'kafuegorge'],
      ['kfau', 'kafuegorge'],
      ['gorge', 'kafuegorge'],
      ['𝒜fux', '𝒜fuegorge'],
      ['abc', 'ab'],
      ['xafu', 'kafuegorge'],
    ] as const) {
      expect(startsWithTypos(rows, formOf(typed), formOf(target), 1), `${typed} ~ ${target}`).to.equal(
        startsWithin(typed, target, 1),
      );
    }
    expect(startsWithTypos(rows, formOf('kafy'), formOf('kafuegorge'), 1)).to.equal(true);
    expect(startsWithTypos(rows, formOf('gorge'), formOf('kafuegorge'), 1)).to.equal(false);
  });
});

describe('matching: bounded distances for rewrites (editDistance.ts, issue 69)', () => {
  const rows = new DistanceRows();
  it('gives the distance up to the limit, and the limit + 1 past it', () => {
    expect(boundedDistance(rows, formOf('kiakgtai'), formOf('kikagati'), 3)).to.equal(2);
    expect(boundedDistance(rows, formOf('penbalnaxa'), formOf('penablanca'), 3)).to.equal(3);
    expect(boundedDistance(rows, formOf('penbalnaxa'), formOf('penablanca'), 2)).to.equal(3);
    expect(boundedDistance(rows, formOf('solar'), formOf('solarpark'), 3)).to.equal(4);
  });

  it('gives the fewest edits to a start of a longer word', () => {
    expect(boundedStartDistance(rows, formOf('gorj'), formOf('gorge'), 2)).to.equal(1);
    expect(boundedStartDistance(rows, formOf('blakw'), formOf('blackwater'), 2)).to.equal(1);
    expect(boundedStartDistance(rows, formOf('xyzw'), formOf('blackwater'), 2)).to.equal(3);
  });
});
