import { expect } from 'chai';
import { clientKey } from '../../../../src/rateLimit/clientKey.js';

describe('rate limit: clientKey', () => {
  it('keys IPv4 as it is', () => {
    expect(clientKey('203.0.113.7')).to.equal('203.0.113.7');
    expect(clientKey(' 203.0.113.7 ')).to.equal('203.0.113.7');
  });

  it('reads IPv4-mapped IPv6 as the IPv4 address, in every spelling', () => {
    expect(clientKey('::ffff:203.0.113.7')).to.equal('203.0.113.7');
    expect(clientKey('::FFFF:203.0.113.7')).to.equal('203.0.113.7');
    expect(clientKey('::ffff:cb00:7107')).to.equal('203.0.113.7');
    expect(clientKey('0:0:0:0:0:ffff:203.0.113.7')).to.equal('203.0.113.7');
    expect(clientKey('0000:0000:0000:0000:0000:ffff:cb00:7107')).to.equal('203.0.113.7');
  });

  it('keys IPv6 by its /64, so addresses in one /64 share a key', () => {
    const key = clientKey('2001:db8:abcd:12::1');
    expect(key).to.equal('2001:db8:abcd:12::/64');
    expect(clientKey('2001:db8:abcd:12:ffff:ffff:ffff:fffe')).to.equal(key);
    expect(clientKey('2001:db8:abcd:13::1')).not.to.equal(key);
  });

  it('gives expanded, compressed and upper-case forms of one /64 the same key', () => {
    const forms = [
      '2001:0db8:0000:0000:1234:5678:9abc:def0',
      '2001:db8::1234:5678:9abc:def0',
      '2001:DB8:0:0:1:2:3:4',
      '2001:db8::',
      '2001:db8:0:0::7',
    ];
    expect(new Set(forms.map(clientKey))).to.deep.equal(new Set(['2001:db8:0:0::/64']));
  });

  it('handles the compressed run at either end and an embedded dotted tail', () => {
    expect(clientKey('::1')).to.equal('0:0:0:0::/64');
    expect(clientKey('1:2:3:4:5:6:7::')).to.equal('1:2:3:4::/64');
    expect(clientKey('64:ff9b::192.0.2.33')).to.equal('64:ff9b:0:0::/64');
  });

  it('drops a zone index, which names a local interface rather than the client', () => {
    expect(clientKey('fe80::1%eth0')).to.equal(clientKey('fe80::2'));
  });

  it('ignores a port a proxy wrote next to the address', () => {
    expect(clientKey('203.0.113.7:51234')).to.equal('203.0.113.7');
    expect(clientKey('[2001:db8:abcd:12::1]:443')).to.equal('2001:db8:abcd:12::/64');
    expect(clientKey('[::ffff:203.0.113.7]')).to.equal('203.0.113.7');
  });

  it('keys a value that is not an IP address as it reads', () => {
    expect(clientKey('unknown')).to.equal('unknown');
    expect(clientKey('')).to.equal('');
  });
});
