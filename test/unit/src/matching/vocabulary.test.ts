import { expect } from 'chai';
import { Vocabulary } from '../../../../src/matching/vocabulary.js';

describe('matching: the words the index holds (vocabulary.ts, issue 69)', () => {
  const vocabulary = new Vocabulary([
    ['kafue', 3],
    ['gorge', 5],
    ['kafue', 9],
    ['zero', 0],
    ['sao', 2],
    ['𝒜bc', 1],
  ]);

  it('counts the active PPAs holding each word, once per word, none for a word held by none', () => {
    expect(vocabulary.size).to.equal(4);
    expect(vocabulary.count('kafue')).to.equal(3);
    expect(vocabulary.count('zero')).to.equal(0);
    expect(vocabulary.count('nothing')).to.equal(0);
  });

  it('gives the words of a length in letters (code points), and tells whether a word starts with a text', () => {
    const texts = (letters: number) => vocabulary.withLetters(letters).words.map((word) => word.form.text);
    expect(texts(5)).to.have.members(['kafue', 'gorge']);
    expect(texts(3)).to.have.members(['sao', '𝒜bc']);
    expect([...vocabulary.withLetters(5).letterBits]).to.deep.equal(
      vocabulary.withLetters(5).words.map((word) => word.form.letterBits),
    );
    expect(texts(9)).to.deep.equal([]);
    expect(vocabulary.maxLetters).to.equal(5);
    expect(vocabulary.holdsStart('kaf')).to.equal(true);
    expect(vocabulary.holdsStart('gorge')).to.equal(true);
    expect(vocabulary.holdsStart('gorges')).to.equal(false);
    expect(vocabulary.holdsStart('a')).to.equal(false);
  });
});
