import { expect } from 'chai';
import { foldText, nameSortKey } from '../../../../indexContract/text/fold.js';

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

  // The fast paths agree with the general definitions.
  const slowSortKey = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

  it('ASCII text folds by lowercasing alone, exactly as NFKD would', () => {
    let ascii = '';
    for (let code = 0; code < 128; code++) ascii += String.fromCharCode(code);
    expect(nameSortKey(ascii)).to.equal(slowSortKey(ascii));
    expect(foldText(`Mount ${ascii} SOLAR`)).to.equal(slowSortKey(`Mount ${ascii} SOLAR`));
  });
});
