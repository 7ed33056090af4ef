import { expect } from 'chai';
import { DistanceRows } from '../../../../../src/matching/editDistance.js';
import { writtenPlainWords, writtenWordsOf } from '../../../../../src/matching/queryText.js';
import { judgeWords, rewriteEdits } from '../../../../../src/matching/rewrite/wordChoices.js';
import { allowedTypos } from '../../../../../src/matching/typoRules.js';
import { Vocabulary } from '../../../../../src/matching/vocabulary.js';

// Words and how many active PPAs hold each, as the index's vocabulary field gives them.
const vocabulary = new Vocabulary(
  Object.entries({
    kafue: 3,
    gorge: 5,
    south: 50,
    hydro: 200,
    hydra: 1,
    power: 400,
    penablanca: 1,
    battery: 40,
    mocuba: 2,
    solar: 900,
    park: 500,
  }),
);
const judge = (q: string, mode: 'list' | 'suggest' = 'list') =>
  judgeWords(q, writtenWordsOf(q), vocabulary, mode, new DistanceRows());
const only = (q: string) => judge(q)[0]!;

describe('matching: what a word of q could have been (rewrite/wordChoices.ts, issue 69)', () => {
  describe('rewriteEdits', () => {
    it('allows one edit more than the forgiving list match, never for a word under three letters', () => {
      for (const letters of [3, 4, 5, 7, 8, 12])
        expect(rewriteEdits(letters, letters), `${letters} letters`).to.equal(
          Math.min(allowedTypos(letters, letters, 'list') + 1, 3),
        );
      expect(rewriteEdits(2, 2)).to.equal(0);
      expect(rewriteEdits(1, 9)).to.equal(0);
    });
  });

  describe('judgeWords', () => {
    it('a word the index holds is known, may stay, and may only be left out', () => {
      const word = only('hydro');
      expect(word).to.include({ word: 'hydro', known: true, hopeless: false });
      expect(word.choices).to.deep.equal([{ words: [], span: 1, edits: 5, count: 0 }]);
    });

    it('a word past the forgiving tolerance must change: the nearest words first, then leaving it out', () => {
      // Three edits in a ten-letter word: the list forgives two.
      const word = only('penbalnaxa');
      expect(word).to.include({ known: false, hopeless: true });
      expect(word.choices[0]).to.deep.equal({ words: ['penablanca'], span: 1, edits: 3, count: 1 });
      expect(word.choices.at(-1)).to.deep.equal({ words: [], span: 1, edits: 10, count: 0 });
    });

    it('a word within the forgiving tolerance may stay as typed, and is still offered its nearer words', () => {
      const word = only('hydor');
      expect(word).to.include({ known: false, hopeless: false });
      expect(word.choices.map((choice) => choice.words.join(' '))).to.include('hydro');
    });

    it('of nearer words at the same distance, the most common comes first', () => {
      // "hydru" is one edit from both "hydro" (200 PPAs) and "hydra" (1).
      const words = only('hydru').choices.map((choice) => choice.words.join(' '));
      expect(words.indexOf('hydro')).to.be.below(words.indexOf('hydra'));
    });

    it('splits a word into two or three the index holds, fewer spaces first', () => {
      const word = only('kafuegorgesouth');
      const splits = word.choices.filter((choice) => choice.words.length > 1);
      expect(splits[0]).to.deep.equal({ words: ['kafue', 'gorge', 'south'], span: 1, edits: 2, count: 3 });
      expect(only('solarpark').choices[0]).to.deep.equal({
        words: ['solar', 'park'],
        span: 1,
        edits: 1,
        count: 500,
      });
    });

    it('joins a word with the next when the index holds them as one, only for words side by side', () => {
      const [first] = judge('ka fue gorge');
      expect(first!.choices[0]).to.deep.equal({ words: ['kafue'], span: 2, edits: 1, count: 3 });
      // Words the precise syntax keeps apart (an exclusion between them) are not joined.
      const q = 'ka -solar fue gorge';
      const [apart] = judgeWords(q, writtenPlainWords(q).words, vocabulary, 'list', new DistanceRows());
      expect(apart!.word).to.equal('ka');
      expect(apart!.choices.some((choice) => choice.span === 2)).to.equal(false);
    });

    it('never respells a word of fewer than three letters, nor one without a letter', () => {
      expect(only('zq').choices).to.deep.equal([{ words: [], span: 1, edits: 2, count: 0 }]);
      expect(only('2024').choices).to.deep.equal([{ words: [], span: 1, edits: 4, count: 0 }]);
    });

    it('the word being typed may become the start of a longer word, its first letter as typed', () => {
      // "penxbl": one edit from the start of "penablanca", four letters short of it: not the last word, it is too far.
      const words = (q: string, at: number) => judge(q)[at]!.choices.map((choice) => choice.words.join(' '));
      expect(words('battery penxbl', 1)).to.include('penablanca');
      expect(words('penxbl battery', 0)).to.not.include('penablanca');
    });
  });
});
