import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  canonicalWords,
  compactForm,
  joinedPairs,
  otherNumeral,
  SECTOR_ABBREVIATIONS,
  technologyWords,
  TECHNOLOGY_WORDS,
  writtenWords,
} from '../../../../indexContract/text/canonical.js';
import { TECHNOLOGIES } from '../../../../tools/generate/vocabulary.js';

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

  it('lists words for every technology of the value set in record.md, and each technology gets its own', () => {
    const recordDoc = readFileSync(new URL('../../../../docs/record.md', import.meta.url), 'utf8');
    const valueSet = /^- technology: (.+)$/mu.exec(recordDoc)?.[1]?.split(', ') ?? [];
    expect(valueSet).to.include('battery_storage');
    expect(Object.keys(TECHNOLOGY_WORDS).sort()).to.deep.equal([...valueSet].sort());
    expect(TECHNOLOGIES.map((technology) => technology.token).sort()).to.deep.equal([...valueSet].sort());
    for (const token of valueSet) expect(technologyWords(token), token).to.include.members(token.split('_'));
  });

  it('gives a technology its synonyms as folded words, each once; an unlisted value its own words', () => {
    expect(technologyWords('solar_pv')).to.include.members(['solar', 'pv', 'photovoltaic']);
    expect(technologyWords('hydro')).to.include.members(['hydroelectric', 'hydropower', 'hpp']);
    expect(technologyWords('gas')).to.include.members(['gas', 'natural', 'ccgt', 'combined', 'cycle']);
    expect(technologyWords('waste')).to.include.members(['waste', 'wte', 'landfill']);
    expect(technologyWords('battery_storage')).to.include.members(['battery', 'storage', 'bess']);
    expect(technologyWords('oil_hfo').filter((word) => word === 'oil')).to.have.length(1);
    expect(technologyWords('tidal_stream')).to.deep.equal(['tidal', 'stream']);
    // Words that name no technology in particular would match most of the catalogue.
    const all = Object.keys(TECHNOLOGY_WORDS).flatMap((token) => technologyWords(token));
    for (const generic of [
      'power',
      'plant',
      'project',
      'station',
      'park',
      'farm',
      'energy',
      'to',
      'system',
    ]) {
      expect(all, generic).to.not.include(generic);
    }
  });
});
