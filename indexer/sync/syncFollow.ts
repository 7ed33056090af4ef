// sync --follow: a sync run every --interval seconds, or at once when the relation's trigger notifies
// (LISTEN ppa_index_records; without the trigger nothing arrives and polling alone keeps the pace), until
// SIGTERM/SIGINT. A notification of a deleted row ('delete', db/migrations/005) makes the next run compare slugs. A failed run (PostgreSQL or Elasticsearch away) is logged and retried at the next tick; the
// high-water mark only moves after a run that applied everything, so nothing is lost in between.
import pg from 'pg';
import { InterruptedError } from '../errors.js';
import { LockLostError, type AliasLock } from '../elasticsearch/lock.js';
import { NOTIFY_CHANNEL } from '../sources/postgresRelation.js';
import type { IndexerLogger } from '../indexerLog.js';
import type { Sync, SyncRunSummary } from './sync.js';

/** Under --follow without --reconcile-every, the slug comparison runs at least this often. */
export const DEFAULT_RECONCILE_MS = 60_000;
const RELISTEN_MS = 30_000;
/** A burst of commits wakes one run, not one each. */
const NOTIFY_DEBOUNCE_MS = 50;
/** The trigger's payload for a deleted row. */
const DELETE_PAYLOAD = 'delete';

export interface FollowOptions {
  sync: Sync;
  url: string;
  lock: AliasLock;
  intervalSeconds: number;
  /** Reconcile every N runs; unset: when DEFAULT_RECONCILE_MS has passed since the last reconcile. */
  reconcileEvery?: number;
  signal: AbortSignal;
  logger: IndexerLogger;
  onRun: (summary: SyncRunSummary) => void;
}

export async function follow(options: FollowOptions): Promise<void> {
  const { sync, signal, logger } = options;
  let wake: (() => void) | null = null;
  let notified = false;
  let rowDeleted = false;
  const notify = (payload: string | undefined): void => {
    notified = true;
    if (payload === DELETE_PAYLOAD) rowDeleted = true;
    wake?.();
  };
  const listener = new Listener(options.url, logger, notify);
  let lastReconcile = Number.NEGATIVE_INFINITY;
  try {
    while (!signal.aborted) {
      await listener.ensure();
      notified = false;
      const deletedBefore: boolean = rowDeleted;
      rowDeleted = false;
      try {
        options.lock.assertHeld();
        const summary = await sync.run(
          (runs) =>
            deletedBefore ||
            (options.reconcileEvery
              ? runs % options.reconcileEvery === 0
              : Date.now() - lastReconcile >= DEFAULT_RECONCILE_MS),
        );
        if (summary.reconciled) lastReconcile = Date.now();
        options.onRun(summary);
      } catch (error) {
        rowDeleted ||= deletedBefore; // not compared yet: the next run does it
        if (error instanceof InterruptedError || signal.aborted) break;
        if (error instanceof LockLostError) throw error;
        logger.error({ err: error }, `sync run failed; retrying in ${options.intervalSeconds}s`);
      }
      if (notified) {
        await delay(NOTIFY_DEBOUNCE_MS, signal);
        continue;
      }
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, options.intervalSeconds * 1000);
        signal.addEventListener('abort', done, { once: true });
        wake = () => setTimeout(done, NOTIFY_DEBOUNCE_MS);
      });
    }
  } finally {
    await listener.close();
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** The LISTEN connection: reconnected (at most every RELISTEN_MS) when it is lost. */
class Listener {
  private client: pg.Client | null = null;
  private lastAttempt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly url: string,
    private readonly logger: IndexerLogger,
    private readonly onNotify: (payload: string | undefined) => void,
  ) {}

  async ensure(): Promise<void> {
    if (this.client || Date.now() - this.lastAttempt < RELISTEN_MS) return;
    this.lastAttempt = Date.now();
    const client = new pg.Client({ connectionString: this.url, application_name: 'ppa-indexer sync listen' });
    client.on('notification', (message) => this.onNotify(message.payload));
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'LISTEN connection lost: polling until it is back');
      if (this.client === client) this.client = null;
      client.end().catch(() => undefined);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      this.client = client;
    } catch (error) {
      this.logger.warn({ err: error }, 'could not LISTEN: polling only');
      await client.end().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
