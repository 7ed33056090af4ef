// A throwaway local Elasticsearch cluster for the node-loss tests: started with scripts/elasticsearch.sh
// (ES_PORTS: one HTTP port per node), nodes killed with SIGKILL and restarted through the script's pid files.
// ES_CLUSTER_URL (comma-separated nodes of a cluster the script started) reuses a running cluster instead.
import { Client } from '@elastic/elasticsearch';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { portBelowEphemeral } from '../../tools/services/net.js';

const run = promisify(execFile);
const SCRIPT = 'scripts/elasticsearch.sh';

export interface EsCluster {
  /** http://127.0.0.1:<port> of each node, in ES_URL order. */
  urls: string[];
  ports: number[];
  /** A client that knows every node (for setup and checks, not the API's). */
  client: Client;
  /** SIGKILL of one node (its data stays). */
  kill(port: number): Promise<void>;
  /** Starts a killed node again on its data; resolves once it answers. */
  restart(port: number): Promise<void>;
  /** Waits for green with every node back in the cluster. */
  waitForGreen(timeoutS?: number): Promise<void>;
  /** Stops and deletes every node (a no-op for a reused ES_CLUSTER_URL). */
  stop(): Promise<void>;
}

async function script(env: Record<string, string>, ...args: string[]): Promise<string> {
  const { stdout } = await run('bash', [SCRIPT, ...args], {
    env: { ...process.env, ...env },
    timeout: 300_000,
    maxBuffer: 1 << 20,
  });
  return stdout.trim();
}

export async function startEsCluster(nodes = 3): Promise<EsCluster> {
  const reused = process.env.ES_CLUSTER_URL;
  let ports: number[];
  if (reused) {
    ports = reused.split(',').map((url) => Number(new URL(url).port));
  } else {
    ports = [];
    while (ports.length < nodes) ports.push(await portBelowEphemeral(new Set(ports)));
    await script({ ES_PORTS: ports.join(',') }, 'start');
  }
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  const client = new Client({ nodes: urls, requestTimeout: 60_000, maxRetries: 5 });
  const cluster: EsCluster = {
    urls,
    ports,
    client,
    async kill(port) {
      await script({ ES_PORT: String(port) }, 'kill');
    },
    async restart(port) {
      await script({ ES_PORT: String(port) }, 'restart');
    },
    async waitForGreen(timeoutS = 120) {
      const health = await client.cluster.health(
        { wait_for_status: 'green', wait_for_nodes: String(ports.length), timeout: `${timeoutS}s` },
        { requestTimeout: (timeoutS + 30) * 1000, ignore: [408] },
      );
      if (health.status !== 'green' || health.number_of_nodes !== ports.length) {
        throw new Error(`cluster not green within ${timeoutS}s: ${JSON.stringify(health)}`);
      }
    },
    async stop() {
      // The nodes' processes, asked before they go: the script must not return (nor delete a data directory) while
      // one still runs. A node deletes its pid file as soon as it is told to stop, so the file cannot tell.
      const pids = reused ? [] : await nodeProcessIds(client).catch(() => []);
      await client.close();
      if (reused) return;
      await script({ ES_PORTS: ports.join(',') }, 'stop', '--purge');
      const running = pids.filter(isRunning);
      if (running.length > 0) {
        throw new Error(`${SCRIPT} stop returned while node process(es) ${running.join(', ')} still ran`);
      }
    },
  };
  return cluster;
}

async function nodeProcessIds(client: Client): Promise<number[]> {
  const info = await client.nodes.info({ metric: 'process' });
  return Object.values(info.nodes).flatMap((node) =>
    node.process?.id === undefined ? [] : [node.process.id],
  );
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // someone else's process: it runs
  }
}
