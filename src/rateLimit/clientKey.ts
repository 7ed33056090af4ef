// Turns a client IP into the key its quota is counted under.
import { isIPv4, isIPv6 } from 'node:net';

/**
 * IPv4 as is; IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as its IPv4; any other IPv6 as its /64, because one
 * subscriber usually holds a whole /64 and could otherwise rotate through 2^64 addresses.
 * A value that is not an IP address (a misconfigured proxy) is keyed as it reads.
 */
export function clientKey(ip: string): string {
  const trimmed = ip.trim();
  const address = withoutPortOrZone(trimmed);
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return trimmed;
  const hextets = expandIPv6(address);
  return mappedIPv4(hextets) ?? `${prefix64(hextets)}::/64`;
}

/**
 * Some proxies write `1.2.3.4:5678` or `[2001:db8::1]:443` into X-Forwarded-For; the port must not make
 * one client many. A zone index (`fe80::1%eth0`) names a local interface, not the client.
 */
function withoutPortOrZone(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  const ipv4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(address);
  const bare = bracketed?.[1] ?? ipv4WithPort?.[1] ?? address;
  return bare.replace(/%.*$/, '');
}

function prefix64(hextets: number[]): string {
  return hextets
    .slice(0, 4)
    .map((hextet) => hextet.toString(16))
    .join(':');
}

/** The eight 16-bit groups of a valid IPv6 address, whatever its written form. */
function expandIPv6(address: string): number[] {
  const withoutDottedTail = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_match, a, b, c, d) => {
    const high = (Number(a) << 8) | Number(b);
    const low = (Number(c) << 8) | Number(d);
    return `${high.toString(16)}:${low.toString(16)}`;
  });
  const [headText = '', tailText] = withoutDottedTail.toLowerCase().split('::');
  const head = parseHextets(headText);
  if (tailText === undefined) return head;
  const tail = parseHextets(tailText);
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

function parseHextets(text: string): number[] {
  return text === '' ? [] : text.split(':').map((hextet) => parseInt(hextet, 16));
}

/** `::ffff:a.b.c.d` (in any spelling) is an IPv4 client seen through a dual-stack socket. */
function mappedIPv4(hextets: number[]): string | undefined {
  const isMapped = hextets.slice(0, 5).every((hextet) => hextet === 0) && hextets[5] === 0xffff;
  if (!isMapped) return undefined;
  const high = hextets[6] ?? 0;
  const low = hextets[7] ?? 0;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
