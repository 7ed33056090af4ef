// Which X-Forwarded-For entry is the client, as TRUST_PROXY_HOPS says.
import { expect } from 'chai';
import Koa from 'koa';
import { applyProxyTrust } from '../../../../src/rateLimit/proxyTrust.js';

function ipSeen(hops: number, forwardedFor: string, socket = '10.0.0.1'): string {
  const app = new Koa();
  applyProxyTrust(app, hops);
  const request = { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: socket } };
  const ctx = app.createContext(request as never, {} as never);
  return ctx.ip;
}

describe('rateLimit/proxyTrust', () => {
  it('takes the hops-th entry from the right; with 0, the socket address whatever the header says', () => {
    expect(ipSeen(0, '203.0.113.9')).to.equal('10.0.0.1');
    expect(ipSeen(1, 'forged, 203.0.113.9')).to.equal('203.0.113.9');
    expect(ipSeen(2, 'forged, 203.0.113.9, 10.0.0.7')).to.equal('203.0.113.9');
  });

  it('refuses a count that is not a whole number of hops', () => {
    expect(() => applyProxyTrust(new Koa(), -1)).to.throw(RangeError);
    expect(() => applyProxyTrust(new Koa(), 1.5)).to.throw(RangeError);
  });
});
