import { expect } from 'chai';
import { foldText, nameSortKey } from '../../src/text/fold.js';

describe('text folding', () => {
  it('folds accents and case the same way for the index and the query', () => {
    expect(foldText('São João')).to.equal('sao joao');
    expect(foldText('SAO JOAO')).to.equal('sao joao');
    expect(foldText('Łódź Straße Ærø')).to.equal('lodz strasse aero');
  });

  it('builds the contract sort key: NFKD, marks removed, lowercased, nothing else', () => {
    expect(nameSortKey('Éolien du Nord')).to.equal('eolien du nord');
    expect(nameSortKey('Straße')).to.equal('straße');
    expect(nameSortKey('ﬁ ligature')).to.equal('fi ligature');
  });
});
