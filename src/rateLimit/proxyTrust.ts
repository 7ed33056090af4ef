// Which X-Forwarded-For entry Koa reports as ctx.ip.
import type Koa from 'koa';

/**
 * With `hops` proxies in front, each appending the address it saw to X-Forwarded-For, the client is the
 * hops-th entry from the right; anything left of it was written by the client and can be forged.
 * With 0 the header is ignored and the socket address is the client.
 */
export function applyProxyTrust(app: Koa, hops: number): void {
  if (!Number.isInteger(hops) || hops < 0) throw new RangeError('TRUST_PROXY_HOPS must be an integer >= 0');
  app.proxy = hops > 0;
  app.maxIpsCount = hops;
}
