import { expect } from 'chai';
import { tagAuthorityOf } from '../../../../src/operations/ppaFeed.js';

describe('operations/ppaFeed: the feed around its presenter', () => {
  it('takes the tag authority from the public host, and never an IPv6 literal', () => {
    expect(tagAuthorityOf('https://ppa.example.org')).to.equal('ppa.example.org');
    expect(tagAuthorityOf('http://127.0.0.1:3000')).to.equal('127.0.0.1');
    expect(tagAuthorityOf('http://[::1]:3000')).to.equal('localhost');
  });
});
