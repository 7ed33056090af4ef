// A private Redis Cluster for tests: three masters (no replicas) on free ports, each its own redis-server
// process, so a test can kill, restart or pause one master. Never touches the shared Redis.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { isPortFree } from '../../tools/services/net.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { RedisServer } from './redisServer.js';

const run = promisify(execFile);
const directories = new Set<string>();
// A test run that dies half-way must not leave a nodes.conf behind (redisServer.ts kills the processes).
process.once('exit', () => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** Whether nothing listens on `port` of 127.0.0.1 right now. */
/** A port whose cluster-bus port (port + 10000) is free too: the kernel's free port is often too high. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 30_000 + Math.floor(Math.random() * 20_000);
    if (taken.has(port)) continue;
    if ((await isPortFree(port)) && (await isPortFree(port + 10_000))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

async function adminCall(port: number, ...args: string[]): Promise<string> {
  const admin = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  admin.on('error', () => {});
  try {
    await admin.connect();
    return String(await admin.call(args[0]!, ...args.slice(1)));
  } finally {
    admin.disconnect();
  }
}

/** One master: a RedisServer with cluster mode on, whose nodes.conf keeps its identity and slots across a restart. */
export class RedisClusterNode {
  private constructor(private readonly server: RedisServer) {}

  static async start(port: number, directory: string): Promise<RedisClusterNode> {
    const server = await RedisServer.start({
      port,
      args: [
        '--dir',
        directory,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        // A dead master is noticed within about a second instead of 15.
        '--cluster-node-timeout',
        '1000',
        // Losing a master makes only its slots unavailable, not the whole cluster (what operations.md advises).
        '--cluster-require-full-coverage',
        'no',
      ],
    });
    return new RedisClusterNode(server);
  }

  get port(): number {
    return this.server.port;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Starts it again after kill(), on the same port and nodes.conf. */
  start(): Promise<void> {
    return this.server.restart();
  }

  get isRunning(): boolean {
    return this.server.isRunning;
  }

  /** How many keys the node holds. */
  async keyCount(): Promise<number> {
    return Number(await adminCall(this.port, 'DBSIZE'));
  }

  /** SIGKILL, as a crash or a lost host would, and waits for the exit. */
  kill(): Promise<void> {
    return this.server.kill();
  }

  /** SIGSTOP: the process keeps its sockets open but answers nothing (a hung host). */
  pause(): void {
    this.server.freeze();
  }

  resume(): void {
    this.server.thaw();
  }

  /** Script calls (one per rate-limit decision) the node has executed: held ones count once it runs again. */
  scriptCalls(): Promise<number> {
    return this.server.scriptCalls();
  }

  /** The node's view of the cluster (`cluster_state:ok` once every slot it knows of is served). */
  async clusterInfo(): Promise<Record<string, string>> {
    const text = await adminCall(this.port, 'CLUSTER', 'INFO');
    return Object.fromEntries(
      text
        .split(/\r?\n/)
        .filter((line) => line.includes(':'))
        .map((line) => line.split(':', 2) as [string, string]),
    );
  }

  /** Whether this node thinks the node on `port` has failed (PFAIL or FAIL). */
  async seesFailed(port: number): Promise<boolean> {
    const nodes = await adminCall(this.port, 'CLUSTER', 'NODES');
    const line = nodes.split('\n').find((each) => each.split(' ')[1]?.startsWith(`127.0.0.1:${port}@`));
    return line !== undefined && /\bfail\??\b/.test(line.split(' ')[2] ?? '');
  }
}

export class RedisCluster {
  private constructor(
    readonly nodes: RedisClusterNode[],
    private readonly directory: string,
  ) {}

  /** Three masters with every slot assigned, resolved once each node reports cluster_state:ok. */
  static async start(masters = 3): Promise<RedisCluster> {
    const directory = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
    directories.add(directory);
    const taken = new Set<number>();
    const nodes: RedisClusterNode[] = [];
    const cluster = new RedisCluster(nodes, directory);
    try {
      for (let i = 0; i < masters; i += 1) {
        const port = await freeClusterPort(taken);
        taken.add(port);
        nodes.push(await RedisClusterNode.start(port, directory));
      }
      await run('redis-cli', [
        '--cluster',
        'create',
        ...nodes.map((node) => node.address),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ]);
      await cluster.waitUntilHealthy();
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  /** The URL the API is given: every master as a seed node. */
  get url(): string {
    return `redis+cluster://${this.nodes.map((node) => node.address).join(',')}`;
  }

  /** The master that holds `key`, asked of a node that is up (not of the client under test). */
  async ownerOf(key: string): Promise<RedisClusterNode> {
    const asked = this.nodes.find((node) => node.isRunning)!;
    const slot = Number(await adminCall(asked.port, 'CLUSTER', 'KEYSLOT', key));
    const admin = new Redis({
      port: asked.port,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
    });
    try {
      await admin.connect();
      const ranges = (await admin.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
      const range = ranges.find(([from, to]) => slot >= from && slot <= to);
      const owner = this.nodes.find((node) => node.port === Number(range?.[2][1]));
      if (!owner) throw new Error(`no master serves slot ${slot} of ${key}`);
      return owner;
    } finally {
      admin.disconnect();
    }
  }

  /** Until every node says cluster_state:ok and knows every other node as healthy. */
  async waitUntilHealthy(timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(
        this.nodes.map(async (node) => {
          try {
            const info = await node.clusterInfo();
            if (info.cluster_state !== 'ok' || info.cluster_known_nodes !== String(this.nodes.length))
              return false;
            for (const other of this.nodes) if (await node.seesFailed(other.port)) return false;
            return true;
          } catch {
            return false;
          }
        }),
      );
      if (states.every(Boolean)) return;
      if (Date.now() > deadline) throw new Error('the Redis Cluster did not become healthy');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) {
      node.resume();
      await node.kill();
    }
    rmSync(this.directory, { recursive: true, force: true });
    directories.delete(this.directory);
  }
}
