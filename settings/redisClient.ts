// An ioredis client for one Redis, a Sentinel group or a Cluster (REDIS_URL): it fails fast instead of queueing or
// hanging when Redis, or the Cluster master holding a key, is away. The API's rate limiter and its log of searches
// that found nothing write through one; the indexer's `searches` command reads through another.
import calculateSlot from 'cluster-key-slot';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { parseRedisUrl } from './redisUrl.js';

/** What serverOf names for one Redis or a Sentinel group: the whole store is one server. */
export const WHOLE_STORE = '';

export interface RedisConnectionOptions {
  /** Past this a command counts as failed (the rate limiter then answers from memory). */
  commandTimeoutMs: number;
}

export interface RedisConnection {
  client: Redis | Cluster;
  kind: 'standalone' | 'sentinel' | 'cluster';
  /** The Cluster master (host:port) that holds `key`; WHOLE_STORE for one Redis or a Sentinel group. */
  serverOf(key: string): string;
  /** Whether `server` is still a master serving slots (false once a failover moved them away). */
  holdsKeys(server: string): boolean;
}

// Reconnect forever, backing off to one attempt a second, so Redis returns without a restart.
const reconnectDelay = (attempt: number): number => Math.min(100 * attempt, 1000);

function commandOptions(commandTimeoutMs: number): RedisOptions {
  return {
    commandTimeout: commandTimeoutMs,
    // In-flight commands are not replayed after a reconnect: the request has been answered by then.
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
  };
}

export function createRedisConnection(redisUrl: string, options: RedisConnectionOptions): RedisConnection {
  const target = parseRedisUrl(redisUrl);
  const whole = { serverOf: () => WHOLE_STORE, holdsKeys: () => true };
  if (target.kind === 'standalone') {
    const client = new Redis(redisUrl, {
      ...commandOptions(options.commandTimeoutMs),
      // Commands sent while disconnected fail at once rather than wait for a reconnect.
      enableOfflineQueue: false,
      retryStrategy: reconnectDelay,
    });
    return { client, kind: 'standalone', ...whole };
  }
  const credentials = { username: target.username, password: target.password };
  if (target.kind === 'sentinel') {
    const client = new Redis({
      ...commandOptions(options.commandTimeoutMs),
      ...credentials,
      sentinels: target.sentinels,
      name: target.masterName,
      db: target.db,
      enableOfflineQueue: false,
      retryStrategy: reconnectDelay,
      sentinelRetryStrategy: reconnectDelay,
      // A master that died is replaced when the connection drops (the sentinels then name the new one); one
      // demoted alive answers writes with READONLY: reconnect, asking the sentinels again.
      reconnectOnError: (error) => (error.message.startsWith('READONLY') ? 1 : false),
      ...(target.tls ? { tls: {}, enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    });
    return { client, kind: 'sentinel', ...whole };
  }
  const client = new Cluster(target.nodes, {
    redisOptions: {
      ...commandOptions(options.commandTimeoutMs),
      ...credentials,
      ...(target.tls ? { tls: {} } : {}),
    },
    // While the slot map is unknown (start-up, every node lost) commands fail at once instead of queueing.
    enableOfflineQueue: false,
    clusterRetryStrategy: reconnectDelay,
    // By default ioredis retries a command on a closed connection or CLUSTERDOWN every 100 ms (up to 16 times):
    // measured with a master killed, each request for its keys then waited the whole command timeout. Failing at
    // once lets the insurance limiter answer; a MOVED after a failover is still followed.
    retryDelayOnFailover: 0,
    retryDelayOnClusterDown: 0,
    retryDelayOnTryAgain: 0,
    maxRedirections: 3,
    slotsRefreshTimeout: 1000,
    // With TLS the certificates name the hosts, so connect by the names the cluster announces, not by IPs.
    ...(target.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
  });
  return {
    client,
    kind: 'cluster',
    serverOf: (key) => client.slots[calculateSlot(key)]?.[0] ?? WHOLE_STORE,
    holdsKeys: (server) => client.slots.some((owners) => owners?.[0] === server),
  };
}

/**
 * Resolves once the connection is ready to take commands, or rejects after `timeoutMs` (commands fail at once while
 * it is not: the offline queue is off).
 */
export async function whenReady(client: Redis | Cluster, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off('ready', ready);
      reject(new Error(`no connection within ${timeoutMs} ms`));
    }, timeoutMs);
    const ready = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once('ready', ready);
  });
}
