// A node a search timed out on: busy, or gone? A node that answers a ping at once is busy (its search pool full):
// sending the search to another node would only add load, so the search is not tried again. A node that does not
// answer goes out of the client's round robin (the client does not do that itself on a timeout), so that later
// searches do not wait for it until the pool's own ping finds it answering again.
import type { BaseConnection as Connection, Client, errors } from '@elastic/elasticsearch';

/** The longest a node is given to answer a ping after a search on it timed out: busy, or gone? */
export const PROBE_TIMEOUT_MS = 250;

export class NodeProbe {
  /** Pings under way, one at a time per node: the searches that timed out on it together share one. */
  private readonly running = new Map<string, Promise<boolean>>();

  constructor(private readonly client: Client) {}

  /**
   * Whether the node `error` (a timeout) came from is only busy; when it is gone, it is marked dead first. The
   * ping is given at most half the time left before `deadline`, so that a retry still has the rest.
   */
  async isBusy(error: unknown, deadline: number): Promise<boolean> {
    const connection = this.connectionOf(error);
    if (!connection) return false;
    const left = deadline - performance.now();
    if (await this.answers(connection, Math.max(1, Math.min(PROBE_TIMEOUT_MS, left / 2)))) return true;
    this.client.connectionPool.markDead(connection);
    return false;
  }

  /** The pool's own connection the error came from: the error carries a copy of it, found by id. */
  private connectionOf(error: unknown): Connection | undefined {
    const id = (error as errors.TimeoutError).meta?.meta?.connection?.id;
    return this.client.connectionPool.connections.find((candidate) => candidate.id === id);
  }

  /** Whether the node answers a ping within `timeoutMs`: any HTTP answer counts. */
  private answers(connection: Connection, timeoutMs: number): Promise<boolean> {
    const running = this.running.get(connection.id);
    if (running) return running;
    const probe = connection
      .request(
        { method: 'HEAD', path: '/' },
        { requestId: 'probe', name: 'ppa-search-api', context: null, timeout: timeoutMs },
      )
      .then(
        () => true,
        () => false,
      )
      .finally(() => this.running.delete(connection.id));
    this.running.set(connection.id, probe);
    return probe;
  }
}
