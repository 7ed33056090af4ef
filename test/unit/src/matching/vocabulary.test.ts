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
    expect(vocabulary.withLetters(5).map((word) => word.form.text)).to.have.members(['kafue', 'gorge']);
    expect(vocabulary.withLetters(3).map((word) => word.form.text)).to.have.members(['sao', '𝒜bc']);
    expect(vocabulary.maxLetters).to.equal(5);
    expect(vocabulary.holdsStart('kaf')).to.equal(true);
    expect(vocabulary.holdsStart('gorge')).to.equal(true);
    expect(vocabulary.holdsStart('gorges')).to.equal(false);
    expect(vocabulary.holdsStart('a')).to.equal(false);
  });
});
