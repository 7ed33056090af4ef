import { expect } from 'chai';
import {
  COUNTRY_ALIASES,
  countryNames,
  countryNameWords,
} from '../../../../indexContract/text/countryNames.js';

describe('index contract: country names', () => {
  it('names a country in English from its code (CLDR, kept as a table), in either case', () => {
    expect(countryNames('SN')).to.deep.equal(['Senegal']);
    expect(countryNames('ke')).to.deep.equal(['Kenya']);
    expect(countryNames('CH')).to.deep.equal(['Switzerland']);
  });

  it('adds the short name where it differs, and the other names people use', () => {
    expect(countryNames('GB')).to.include.members(['United Kingdom', 'UK', 'Great Britain']);
    expect(countryNames('CI')).to.include('Ivory Coast');
    expect(countryNames('TR')).to.include('Turkey');
    for (const [code, aliases] of Object.entries(COUNTRY_ALIASES)) {
      expect(countryNames(code), code).to.include.members([...aliases]);
      expect(countryNames(code).length, code).to.be.above(aliases.length);
    }
  });

  it('names nothing for no country, a malformed code, or a code that is no country', () => {
    expect(countryNames(null)).to.deep.equal([]);
    expect(countryNames('A1')).to.deep.equal([]);
    expect(countryNames('SEN')).to.deep.equal([]);
    expect(countryNames('ZZ')).to.deep.equal([]);
    expect(countryNames('QQ')).to.deep.equal([]);
  });

  it('writes the names as folded words, punctuation as spaces, as `q` is read', () => {
    expect(countryNameWords('CI')).to.deep.equal(['cote d ivoire', 'ivory coast']);
    expect(countryNameWords('BA')).to.include('bosnia herzegovina');
    expect(countryNameWords(null)).to.deep.equal([]);
  });
});
