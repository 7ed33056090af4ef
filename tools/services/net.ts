// Small helpers that both the tests (test/support/) and the benchmarks (bench/) use to start services of their
// own: a free local port, and a name no concurrent run uses.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A lowercase name no other test (or concurrent run) uses: for aliases, indices and Redis key prefixes. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`.toLowerCase();
}

/**
 * A TCP port free on 127.0.0.1 now, for a server (often a child process) that binds it later. Taken below the
 * kernel's ephemeral range: a port the kernel hands out to `listen(0)` could be handed to another test's server
 * (mocha runs two files at once) before ours binds it, and the test would then talk to that server (seen in CI:
 * `npm start`'s URLs answered by another file's app, without its rate-limit headers).
 */
export function freePort(): Promise<number> {
  return portBelowEphemeral();
}

/** Whether 127.0.0.1:`port` can be listened on right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port free now in the 10,000 below the kernel's ephemeral range (ip_local_port_range, 32768-60999 by default),
 * for a server that binds it seconds later: no outgoing connection takes it meanwhile, as one can take a port the
 * kernel handed out (the nodes of a starting cluster connect to each other while the others still start).
 */
export async function portBelowEphemeral(taken: ReadonlySet<number> = new Set()): Promise<number> {
  let low = 32_768;
  try {
    low =
      Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // not Linux: the default range
  }
  const start = Math.max(1_024, low - 10_000);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = start + Math.floor(Math.random() * (low - start));
    if (!taken.has(port) && (await isPortFree(port))) return port;
  }
  throw new Error(`no free port in ${start}-${low - 1}`);
}
