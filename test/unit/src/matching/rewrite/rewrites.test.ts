import { expect } from 'chai';
import { rewritesOf } from '../../../../../src/matching/rewrite/rewrites.js';
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
    plant: 300,
    penablanca: 1,
    battery: 40,
    mocuba: 2,
    geothermal: 30,
    solar: 900,
    park: 500,
    accra: 20,
  }),
);
const rewrites = (q: string, mode: 'list' | 'suggest' = 'list') => rewritesOf(q, vocabulary, mode, 6);

describe('matching: what else a q that found nothing could have meant (rewrite/rewrites.ts, issue 69)', () => {
  it('respells a word past the forgiving tolerance with the nearest word the index holds, as it was typed', () => {
    // Three edits in a long word; a wrong first letter and a typo; the case as typed.
    expect(rewrites('Penbalnaxa Battery')[0]).to.equal('Penablanca Battery');
    expect(rewrites('Nocuva GEOTHERMAL')[0]).to.equal('Mocuba GEOTHERMAL');
    expect(rewrites('NOCUVA geothermal')[0]).to.equal('MOCUBA geothermal');
  });

  it('leaves out a word the index does not hold at all, with the spaces around it', () => {
    expect(rewrites('Kafue zorblat Gorge')).to.deep.equal(['Kafue Gorge']);
    expect(rewrites('zorblat Kafue Gorge')).to.deep.equal(['Kafue Gorge']);
  });

  it('splits a word into two or three the index holds, and joins two into one', () => {
    expect(rewrites('KafueGorgeSouth power')[0]).to.equal('Kafue Gorge South power');
    expect(rewrites('ka fue gorge')[0]).to.equal('kafue gorge');
  });

  it('changes one word when every word could be met as typed: the fewest edits, then the most common word', () => {
    // "hydroo" is a typo of "hydro" (the technology's word), which the forgiving match does not look for there.
    const found = rewrites('kafeu gorje hydroo');
    expect(found[0]).to.equal('kafeu gorje hydro');
    expect(found).to.include('kafue gorje hydroo').and.include('kafeu gorge hydroo');
    // Words the index holds are changed last.
    expect(rewrites('Kafue Gorge Accra').slice(0, 3)).to.have.members([
      'Kafue Gorge',
      'Kafue Accra',
      'Gorge Accra',
    ]);
  });

  it('keeps phrases, exclusions, alternatives and qualifiers as written; suggest reads them as text', () => {
    expect(rewrites('Kafue "gorge south" zorblat -solar developer:x')).to.deep.equal([
      'Kafue "gorge south" -solar developer:x',
    ]);
    expect(rewrites('solar OR zorblat kafue zorblat')).to.deep.equal(['solar OR zorblat kafue']);
    expect(rewrites('-"gorge" zorblat')).to.deep.equal([]);
    expect(rewrites('"kafue gorge" zorblat')).to.deep.equal(['"kafue gorge"']);
    expect(rewrites('Kafue Gorj', 'suggest')[0]).to.equal('Kafue Gorge');
  });

  it('offers nothing for gibberish, a q every word of which must change, or past three changed words', () => {
    expect(rewrites('qzxvbn')).to.deep.equal([]);
    expect(rewrites('qzxvbn bcdfgh')).to.deep.equal([]);
    expect(rewrites('Kafue qzxvbn bcdfgh wvtzpq xkcdrr')).to.deep.equal([]);
    expect(rewritesOf('zorblat kafue', new Vocabulary([]), 'list', 6)).to.deep.equal([]);
  });

  it('never writes an upper-case OR, which would read as an operator', () => {
    const withOr = new Vocabulary([
      ['or', 10],
      ['kafue', 3],
    ]);
    expect(rewritesOf('KAFUE ORR', withOr, 'list', 6)).to.include('KAFUE or');
  });
});
