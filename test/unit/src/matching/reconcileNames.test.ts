import { expect } from 'chai';
import { comparableName, comparableWords, nameSimilarity } from '../../../../src/matching/reconcileNames.js';

describe('matching/reconcileNames: how a name compares for reconciliation', () => {
  it('drops every legal-form word of the contract and punctuation, folds case and accents', () => {
    expect(comparableName('Acme Power Ltd.')).to.equal('acme power');
    expect(comparableName('ACME  POWER, LIMITED')).to.equal('acme power');
    expect(comparableName('Société Générale S.A.')).to.equal('societe generale');
    expect(comparableName('Enerjisa Üretim A.Ş.')).to.equal('enerjisa uretim');
    for (const form of ['SA', 'PLC', 'plc', 'GmbH', 'Inc.', 'LLC', 'SAS', 'Pty', 'Co.']) {
      expect(comparableName(`Kafue Holdings ${form}`), form).to.equal('kafue holdings');
    }
    expect(comparableName('Sun-Power (Pty) Ltd')).to.equal('sun power');
  });

  it('keeps a name made only of legal-form words', () => {
    expect(comparableWords('S.A.')).to.deep.equal(['sa']);
  });

  it('scores equal comparable names 1, whatever the legal form, punctuation, spacing or order', () => {
    expect(nameSimilarity('Acme Power Ltd', 'ACME POWER')).to.equal(1);
    expect(nameSimilarity('Sun Power', 'SunPower GmbH')).to.equal(1);
    expect(nameSimilarity('Power Acme', 'Acme Power')).to.equal(1);
    expect(nameSimilarity('São João Energia', 'Sao Joao Energia')).to.equal(1);
  });

  it('is 1 − edits ÷ longer length: one typo in "acmepower" is 8/9', () => {
    expect(nameSimilarity('Acme Powre', 'Acme Power')).to.equal(Math.round((8 / 9) * 1000) / 1000);
    expect(nameSimilarity('abc', 'xyz')).to.equal(0);
  });
});
