// Small helpers that both the tests (test/support/) and the benchmarks (bench/) use to start services of their
// own: a free local port, and a name no concurrent run uses.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';

/** A lowercase name no other test (or concurrent run) uses: for aliases, indices and Redis key prefixes. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`.toLowerCase();
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
