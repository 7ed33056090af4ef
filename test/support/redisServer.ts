// A private redis-server for tests that stop or pause Redis: the shared one must never be touched.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from './services.js';

const running = new Set<ChildProcess>();
// A test run that dies half-way must not leave a redis-server behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface RedisServerOptions {
  /** This port instead of a free one the kernel picks (a Cluster node needs its bus port, port + 10000, free too). */
  port?: number;
  /** A config file read first (Sentinel needs one it can rewrite). */
  configFile?: string;
  /** More arguments, e.g. ['--replicaof', host, port] or ['--sentinel']. */
  args?: string[];
}

export class RedisServer {
  #child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    private readonly options: RedisServerOptions,
  ) {}

  /** Starts redis-server on a free port (no persistence) and resolves once it answers PING. */
  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const server = new RedisServer(options.port ?? (await freePort()), options);
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get isRunning(): boolean {
    return this.#child !== undefined;
  }

  /** Starts it again on the same port (empty: nothing is persisted). */
  async restart(): Promise<void> {
    if (this.#child) throw new Error(`redis-server on port ${this.port} is already running`);
    const child = spawn(
      'redis-server',
      [
        ...(this.options.configFile ? [this.options.configFile] : []),
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
        ...(this.options.args ?? []),
      ],
      { stdio: 'ignore' },
    );
    running.add(child);
    child.once('exit', () => running.delete(child));
    this.#child = child;
    await this.#waitUntilAnswering(5000);
  }

  /** Kills it the hard way (SIGKILL), as a crash or a lost host would, and waits for the exit. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  }

  /** SIGSTOP: the process keeps its sockets open but answers nothing (a hung host) until thaw(). */
  freeze(): void {
    this.#child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.#child?.kill('SIGCONT');
  }

  /** `CLIENT PAUSE ms`: the server keeps its connections but answers nothing until the pause ends. */
  async pause(ms: number): Promise<void> {
    const admin = new Redis(this.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    try {
      await admin.connect();
      await admin.call('CLIENT', 'PAUSE', String(ms));
    } finally {
      admin.disconnect();
    }
  }

  /** One command on a connection of its own (INFO, SENTINEL …, for a test's own checks). */
  async call(command: string, ...args: string[]): Promise<unknown> {
    const admin = new Redis(this.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    admin.on('error', () => {});
    try {
      await admin.connect();
      return await admin.call(command, ...args);
    } finally {
      admin.disconnect();
    }
  }

  /** How many script calls (EVAL + EVALSHA: one per rate-limit decision) the server has executed. */
  async scriptCalls(): Promise<number> {
    const admin = new Redis(this.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    try {
      await admin.connect();
      const stats = String(await admin.call('INFO', 'commandstats'));
      let calls = 0;
      for (const match of stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm))
        calls += Number(match[1]);
      return calls;
    } finally {
      admin.disconnect();
    }
  }

  async #waitUntilAnswering(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const probe = new Redis(this.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      probe.on('error', () => {});
      try {
        await probe.connect();
        if ((await probe.ping()) === 'PONG') return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`redis-server on port ${this.port} did not start: ${error}`);
      } finally {
        probe.disconnect();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
