import { expect } from 'chai';
import {
  canonicalWords,
  compactForm,
  joinedPairs,
  otherNumeral,
  SECTOR_ABBREVIATIONS,
  writtenWords,
} from '../../../../indexContract/text/canonical.js';

describe('index contract: canonical words', () => {
  it('writes numerals 1–10 as digits, whichever way they were written', () => {
    expect(canonicalWords('Kafue Gorge II')).to.deep.equal(['kafue', 'gorge', '2']);
    expect(canonicalWords('Unit 3')).to.deep.equal(canonicalWords('UNIT iii'));
    expect(canonicalWords('Block X 11 XI')).to.deep.equal(['block', '10', '11', 'xi']);
  });

  it('writes sector abbreviations out, so either form meets the other', () => {
    expect(compactForm('Kafue PV')).to.equal(compactForm('Kafue Photovoltaic'));
    expect(canonicalWords('Kafue HPP')).to.deep.equal(['kafue', 'hydro', 'power', 'plant']);
    expect(compactForm('Itezhi HEPP')).to.equal(compactForm('Itezhi Hydroelectric Power Plant'));
    expect(compactForm('Serra SPP')).to.equal(compactForm('Serra Solar PP'));
    expect(compactForm('Azito CCGT')).to.equal(compactForm('Azito Combined Cycle Gas Turbine'));
    expect(compactForm('Ngong WF')).to.equal(compactForm('Ngong Wind Farm'));
    for (const long of Object.values(SECTOR_ABBREVIATIONS)) expect(long).to.match(/^[a-z]+(?: [a-z]+)*$/);
  });

  it('drops periods and apostrophes inside words, and accents and case', () => {
    expect(canonicalWords('Central Térmica P.E.')).to.deep.equal(['central', 'termica', 'pe']);
    expect(compactForm("O'Neill Wind")).to.equal(compactForm('ONeill wind'));
    expect(compactForm('O Neill Wind')).to.equal(compactForm('O’Neill Wind'));
    expect(writtenWords('S.p.A. SolarPV')).to.deep.equal(['spa', 'solarpv']);
  });

  it('joins adjacent words, canonical and as written', () => {
    expect(joinedPairs('Kafue Gorge PV')).to.have.members(['kafuegorge', 'gorgephotovoltaic', 'gorgepv']);
    expect(joinedPairs('Solo')).to.deep.equal([]);
  });

  it('names the other way of writing a numeral, and nothing for other words', () => {
    expect(otherNumeral('2')).to.equal('ii');
    expect(otherNumeral('IX')).to.equal('9');
    expect(otherNumeral('11')).to.equal(undefined);
    expect(otherNumeral('Park')).to.equal(undefined);
  });
});
