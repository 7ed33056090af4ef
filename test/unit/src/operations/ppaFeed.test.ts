import { expect } from 'chai';
import { searchLabel, tagAuthorityOf } from '../../../../src/operations/ppaFeed.js';

describe('operations/ppaFeed: the feed around its presenter', () => {
  it('takes the tag authority from the public host, and never an IPv6 literal', () => {
    expect(tagAuthorityOf('https://ppa.example.org')).to.equal('ppa.example.org');
    expect(tagAuthorityOf('http://127.0.0.1:3000')).to.equal('127.0.0.1');
    expect(tagAuthorityOf('http://[::1]:3000')).to.equal('localhost');
  });

  it('says the search in words for the title', () => {
    expect(searchLabel({})).to.equal(null);
    expect(
      searchLabel({ q: 'kafue', technology: ['solar_pv', 'hydro'], country: ['SN'], minCapacity: 5 }),
    ).to.equal('q "kafue", technology solar_pv or hydro, country SN, at least 5 MW');
  });
});
