// The request's own origin, the base of absolute links when PUBLIC_BASE_URL is unset.
import type { Context } from 'koa';

// RFC 9110 Host: a host name, an IPv4 address or a bracketed IPv6 literal, and an optional port.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::\d{1,5})?$/;

/**
 * `scheme://host` from the request. The Host header is the client's word: HTTP/1.0 may leave it out, and a value
 * such as "a b" or "x/y?z#" is no host at all. Either would make links that are not absolute URLs, so the address
 * the client connected to (`localAddress`, host:port) stands in for it.
 */
export function requestOrigin(protocol: string, host: string, localAddress: string): string {
  const scheme = protocol === 'https' ? 'https' : 'http';
  const usable = HOST.test(host) && URL.canParse(`${scheme}://${host}`);
  return `${scheme}://${usable ? host : localAddress}`;
}

/** The origin of this request (ctx.protocol and ctx.host honour X-Forwarded-* when a proxy is trusted). */
export function originOf(ctx: Context): string {
  const { localAddress = '127.0.0.1', localPort = 0 } = ctx.req.socket;
  const address = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  return requestOrigin(ctx.protocol, ctx.host, `${address}:${localPort}`);
}
