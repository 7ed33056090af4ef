import { expect } from 'chai';
import {
  droppedLetterSpellings,
  TYPO_MIN_LETTERS as CONTRACT_TYPO_MIN_LETTERS,
} from '../../../../indexContract/text/typos.js';
import {
  allowedTypos,
  DROPPED_LETTER_MIN_LETTERS,
  FUZZINESS,
  MAX_TYPO_WORD_LETTERS,
  MAX_TYPOS,
  ONE_TYPO,
  PREFIX_TYPO_MIN_LETTERS,
  TWO_TYPOS_MIN_LETTERS,
  TYPO_MIN_LETTERS,
  typoTolerance,
  type TypoRules,
} from '../../../../src/matching/typoRules.js';

const RULES: readonly TypoRules[] = ['list', 'suggest', 'text', 'exact'];

describe('matching: the typo table (typoRules.ts)', () => {
  it('reads the threshold the indexer depends on from the index contract', () => {
    expect(TYPO_MIN_LETTERS).to.equal(CONTRACT_TYPO_MIN_LETTERS);
    // A typed word a letter short of the shortest word with spellings is the shortest looked up among them.
    const shortest = 'a'.repeat(TYPO_MIN_LETTERS);
    const spelling = droppedLetterSpellings(`b${shortest.slice(1)}`)[0]!;
    expect(spelling).to.have.length(DROPPED_LETTER_MIN_LETTERS);
    expect(droppedLetterSpellings('b'.repeat(TYPO_MIN_LETTERS - 1))).to.deep.equal([]);
  });

  it("writes Elasticsearch's fuzziness from the same thresholds it judges by", () => {
    expect(FUZZINESS).to.equal(`AUTO:${TYPO_MIN_LETTERS},${TWO_TYPOS_MIN_LETTERS}`);
    for (let letters = 1; letters <= 12; letters++) {
      const auto = letters >= TWO_TYPOS_MIN_LETTERS ? 2 : letters >= TYPO_MIN_LETTERS ? 1 : 0;
      expect(allowedTypos(letters, letters, 'text'), `${letters} letters`).to.equal(auto);
    }
  });

  it('gives each rule its typos: a dropped letter against longer words, two typos for the list only, none exact', () => {
    // Four letters: only a dropped letter (against a longer word), in names.
    expect(allowedTypos(4, 5, 'list')).to.equal(1);
    expect(allowedTypos(4, 4, 'list')).to.equal(0);
    expect(allowedTypos(4, 5, 'text')).to.equal(0);
    // Six and seven letters against a longer word: two typos in the list's names, one in suggest's.
    expect(allowedTypos(6, 7, 'list')).to.equal(2);
    expect(allowedTypos(7, 8, 'list')).to.equal(2);
    expect(allowedTypos(6, 6, 'list')).to.equal(1);
    expect(allowedTypos(6, 7, 'suggest')).to.equal(1);
    // Suggest never two.
    expect(allowedTypos(9, 9, 'suggest')).to.equal(ONE_TYPO);
    expect(allowedTypos(9, 9, 'list')).to.equal(2);
    for (let letters = 1; letters <= 40; letters++) expect(allowedTypos(letters, 50, 'exact')).to.equal(0);
  });

  it('allows no typo past MAX_TYPO_WORD_LETTERS, and never more than MAX_TYPOS', () => {
    for (const rules of RULES) {
      expect(allowedTypos(MAX_TYPO_WORD_LETTERS + 1, 50, rules), rules).to.equal(0);
      for (let letters = 1; letters <= MAX_TYPO_WORD_LETTERS; letters++) {
        for (const target of [letters - 1, letters, letters + 1, letters + 5]) {
          expect(allowedTypos(letters, target, rules)).to.be.within(0, MAX_TYPOS);
        }
      }
    }
    expect(allowedTypos(MAX_TYPO_WORD_LETTERS, MAX_TYPO_WORD_LETTERS, 'list')).to.equal(MAX_TYPOS);
  });

  it('lets the word being typed carry its typo from as few letters as a dropped letter leaves', () => {
    expect(PREFIX_TYPO_MIN_LETTERS).to.equal(DROPPED_LETTER_MIN_LETTERS);
  });

  it('writes a tolerance as the clauses take it: the fuzziness, then the letters taken as typed when given', () => {
    expect(typoTolerance(ONE_TYPO)).to.deep.equal({ fuzziness: 1 });
    expect(JSON.stringify(typoTolerance(FUZZINESS, 2))).to.equal(
      '{"fuzziness":"AUTO:5,8","prefix_length":2}',
    );
    expect(Object.keys(typoTolerance(ONE_TYPO))).to.deep.equal(['fuzziness']);
  });
});
