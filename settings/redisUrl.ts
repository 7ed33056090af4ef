// REDIS_URL names one Redis, a Redis Cluster or a Sentinel group. A URL has one host, so the cluster and
// Sentinel forms list several (seed nodes, sentinels) after their own schemes:
//   redis://[user:password@]host[:port][/db]                    one server (ioredis parses it; TLS: rediss://)
//   redis+cluster://[user:password@]host:port,host:port,…       Redis Cluster seed nodes (TLS: rediss+cluster://)
//   redis+sentinel://[user:password@]host:port,…/master[/db]    sentinels and the master's name (rediss+sentinel://)
// Pure: parsing reads only the string, and no message repeats a password.

export interface RedisHostPort {
  host: string;
  port: number;
}

export interface RedisCredentials {
  username?: string;
  password?: string;
}

export type RedisTarget =
  | { kind: 'standalone'; url: string }
  | ({ kind: 'cluster'; nodes: RedisHostPort[]; tls: boolean } & RedisCredentials)
  | ({
      kind: 'sentinel';
      sentinels: RedisHostPort[];
      /** The name the sentinels monitor the master under (`sentinel monitor <name> …`). */
      masterName: string;
      db: number;
      tls: boolean;
    } & RedisCredentials);

export class RedisUrlError extends Error {
  override name = 'RedisUrlError';
}

const SCHEMES = ['redis', 'rediss', 'redis+cluster', 'rediss+cluster', 'redis+sentinel', 'rediss+sentinel'];
const DEFAULT_REDIS_PORT = 6379;
const DEFAULT_SENTINEL_PORT = 26379;
// A host name (letters, digits, dots, hyphens, underscores as Docker service names have) or an IPv4 address.
const HOST_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;
const IPV6 = /^[0-9A-Fa-f:.]+$/;

/** Parses REDIS_URL; throws a RedisUrlError saying what is wrong. */
export function parseRedisUrl(value: string): RedisTarget {
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s.exec(value);
  const scheme = schemeMatch?.[1]?.toLowerCase();
  if (!schemeMatch || !scheme || !SCHEMES.includes(scheme)) {
    throw new RedisUrlError(`the scheme must be one of ${SCHEMES.map((each) => `${each}://`).join(', ')}`);
  }
  if (scheme === 'redis' || scheme === 'rediss') return parseStandalone(value);
  const rest = schemeMatch[2]!;
  if (/[?#]/.test(rest)) throw new RedisUrlError('query strings and fragments are not supported');
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? '' : rest.slice(slash + 1);
  const at = authority.lastIndexOf('@');
  const credentials = at === -1 ? {} : parseCredentials(authority.slice(0, at));
  const tls = scheme.startsWith('rediss');

  if (scheme.endsWith('+cluster')) {
    const nodes = parseHosts(authority.slice(at + 1), DEFAULT_REDIS_PORT, 'seed node');
    if (path !== '') {
      throw new RedisUrlError('a Redis Cluster has only database 0: nothing may follow the host list');
    }
    return { kind: 'cluster', nodes, tls, ...credentials };
  }
  const sentinels = parseHosts(authority.slice(at + 1), DEFAULT_SENTINEL_PORT, 'sentinel');
  const [masterName, db, ...extra] = path.split('/');
  if (!masterName) {
    throw new RedisUrlError(
      'name the master after the sentinels: redis+sentinel://host:26379,…/<master name>',
    );
  }
  if (extra.length > 0 || (db !== undefined && !/^\d{1,5}$/.test(db))) {
    throw new RedisUrlError('after the master name only a database number may follow (/<master name>/<db>)');
  }
  return {
    kind: 'sentinel',
    sentinels,
    masterName: decode(masterName, 'the master name'),
    db: db === undefined ? 0 : Number(db),
    tls,
    ...credentials,
  };
}

/** The problem with `value` as REDIS_URL, or undefined when it is fine (for the start-up message). */
export function redisUrlProblem(value: string): string | undefined {
  try {
    parseRedisUrl(value);
    return undefined;
  } catch (error) {
    if (error instanceof RedisUrlError) return error.message;
    throw error;
  }
}

function parseStandalone(value: string): RedisTarget {
  const authority = value.slice(value.indexOf('//') + 2).split(/[/?#]/)[0]!;
  if (authority.slice(authority.lastIndexOf('@') + 1).includes(',')) {
    throw new RedisUrlError(
      'one host only; several: redis+cluster:// (a Cluster) or redis+sentinel:// (Sentinel)',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RedisUrlError('not a valid URL');
  }
  if (url.hostname === '') throw new RedisUrlError('the URL names no host');
  return { kind: 'standalone', url: value };
}

function parseCredentials(userinfo: string): RedisCredentials {
  const colon = userinfo.indexOf(':');
  const username = decode(colon === -1 ? userinfo : userinfo.slice(0, colon), 'the user name');
  const password = colon === -1 ? undefined : decode(userinfo.slice(colon + 1), 'the password');
  return {
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
  };
}

function parseHosts(list: string, defaultPort: number, what: string): RedisHostPort[] {
  if (list.trim() === '') throw new RedisUrlError(`list at least one ${what} as host:port`);
  return list.split(',').map((entry, index) => {
    const item = entry.trim();
    const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(item);
    const host = bracketed ? bracketed[1]! : item.split(':')[0]!;
    const port = bracketed
      ? bracketed[2]
      : item.includes(':')
        ? item.slice(item.indexOf(':') + 1)
        : undefined;
    const position = `${what} ${index + 1} (${JSON.stringify(item)})`;
    if (bracketed ? !IPV6.test(host) || !host.includes(':') : !HOST_NAME.test(host)) {
      throw new RedisUrlError(`${position} is not a host name, IPv4 or [IPv6] address`);
    }
    if (port === undefined) return { host, port: defaultPort };
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
      throw new RedisUrlError(`${position} has no port from 1 to 65535`);
    }
    return { host, port: Number(port) };
  });
}

function decode(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new RedisUrlError(`${what} is not valid percent-encoding`);
  }
}
