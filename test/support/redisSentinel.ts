// A private Sentinel group for tests: a master, one replica and three sentinels on free ports, so a test can
// kill the master and watch Sentinel promote the replica. Never touches the shared Redis.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisServer } from './redisServer.js';

const directories = new Set<string>();
process.once('exit', () => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SENTINEL MASTER's flat [field, value, …] reply as an object. */
function fields(reply: unknown): Record<string, string> {
  const list = reply as string[];
  const result: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) result[list[i]!] = list[i + 1]!;
  return result;
}

export class RedisSentinelGroup {
  private constructor(
    readonly masterName: string,
    readonly master: RedisServer,
    readonly replica: RedisServer,
    readonly sentinels: RedisServer[],
    private readonly directory: string,
  ) {}

  static async start(masterName = 'ppa-limits', sentinelCount = 3): Promise<RedisSentinelGroup> {
    const directory = mkdtempSync(join(tmpdir(), 'redis-sentinel-'));
    directories.add(directory);
    const started: RedisServer[] = [];
    try {
      const master = await RedisServer.start();
      started.push(master);
      const replica = await RedisServer.start({ args: ['--replicaof', '127.0.0.1', String(master.port)] });
      started.push(replica);
      await waitFor('the replica to sync', 10_000, async () =>
        String(await replica.call('INFO', 'replication')).includes('master_link_status:up'),
      );
      const sentinels: RedisServer[] = [];
      for (let i = 0; i < sentinelCount; i += 1) {
        // Sentinel rewrites its config file, so each has its own.
        const configFile = join(directory, `sentinel-${i}.conf`);
        writeFileSync(
          configFile,
          [
            `sentinel monitor ${masterName} 127.0.0.1 ${master.port} ${Math.floor(sentinelCount / 2) + 1}`,
            // A dead master is noticed after a second (default 30 s), and a failover retried after 3 s.
            `sentinel down-after-milliseconds ${masterName} 1000`,
            `sentinel failover-timeout ${masterName} 3000`,
            '',
          ].join('\n'),
        );
        const sentinel = await RedisServer.start({ configFile, args: ['--sentinel', '--dir', directory] });
        started.push(sentinel);
        sentinels.push(sentinel);
      }
      const group = new RedisSentinelGroup(masterName, master, replica, sentinels, directory);
      // Sentinels find the replica and each other through the master (hello messages every 2 s).
      await waitFor('the sentinels to know the replica and each other', 20_000, async () => {
        for (const sentinel of sentinels) {
          const state = fields(await sentinel.call('SENTINEL', 'MASTER', masterName));
          if (state['num-slaves'] !== '1' || state['num-other-sentinels'] !== String(sentinelCount - 1))
            return false;
        }
        return true;
      });
      return group;
    } catch (error) {
      for (const server of started) await server.kill();
      rmSync(directory, { recursive: true, force: true });
      throw error;
    }
  }

  get url(): string {
    return `redis+sentinel://${this.sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(',')}/${this.masterName}`;
  }

  /** The port of the master every sentinel names. */
  async masterPort(): Promise<number | undefined> {
    const ports = await Promise.all(
      this.sentinels.map(async (sentinel) => {
        const address = (await sentinel.call(
          'SENTINEL',
          'GET-MASTER-ADDR-BY-NAME',
          this.masterName,
        )) as string[];
        return Number(address[1]);
      }),
    );
    return ports.every((port) => port === ports[0]) ? ports[0] : undefined;
  }

  /** Until every sentinel names `server` as the master and it says it is one. */
  async waitForMaster(server: RedisServer, timeoutMs = 20_000): Promise<void> {
    await waitFor(`port ${server.port} to become the master`, timeoutMs, async () => {
      if ((await this.masterPort()) !== server.port) return false;
      return String(await server.call('INFO', 'replication')).includes('role:master');
    });
  }

  async stop(): Promise<void> {
    for (const server of [...this.sentinels, this.replica, this.master]) await server.kill();
    rmSync(this.directory, { recursive: true, force: true });
    directories.delete(this.directory);
  }
}
