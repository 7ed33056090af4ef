// One holder at a time of one thing of an alias, named by what it guards (LockOptions.guards): its generations
// (reindex and rollback build and swap them), sync's in-place writes to its live index, its change log's writer.
// A lock is a document (id: lockName) created with op_type=create in one small index shared by every alias
// (LOCK_INDEX; retention never touches it: it is no `<alias>-<timestamp>`), deleted when released, so nothing is
// left behind per alias. It carries an expiry that a heartbeat extends, so
// a crashed run blocks others only until the expiry; an expired lock is taken over with optimistic concurrency
// (if_seq_no / if_primary_term), so two runs cannot both take it. Expiries are read and written on the
// cluster's clock, not this machine's: two indexer hosts whose clocks disagree still agree on the lock.
import type { Client } from '@elastic/elasticsearch';
import { hostname } from 'node:os';
import { LockedError } from '../errors.js';

export interface LockOptions {
  ttlMs?: number;
  /** Who holds it, for the refusal message. */
  owner?: string;
  /** What the lock keeps to one holder at a time (default: the alias's generations). */
  guards?: LockGuards;
}

/**
 * What a lock guards, with its document's id and the word its messages name a holder by. The ids are those the
 * locks had when each was named for its first holder (a running indexer of the previous version and this one
 * still exclude each other, and `status` lists the same names).
 */
const GUARDED = {
  /** Building a new index of the alias and moving the alias to it or back: reindex, rollback. Id: the alias. */
  generations: { suffix: '', holder: 'reindex' },
  /** Sync's in-place writes to the live index: one sync per alias. Id: `<alias>:sync`. */
  syncWrites: { suffix: ':sync', holder: 'sync' },
  /** The change log's one writer (changes/changeLog.ts). Id: `<alias>:changes`. */
  changeLog: { suffix: ':changes', holder: 'changes' },
} as const;

export type LockGuards = keyof typeof GUARDED;

/** The lock's id (and its document's `alias`). */
export function lockName(alias: string, guards: LockGuards = 'generations'): string {
  return `${alias}${GUARDED[guards].suffix}`;
}

/**
 * The holder lost its lock: the heartbeat could not keep it, and another run may now hold it. A plain Error, not
 * an IndexerError: the CLI reports it as an unexpected failure, with the stack at LOG_LEVEL=debug.
 */
export class LockLostError extends Error {}

export interface LockDocument {
  alias: string;
  owner: string;
  acquired_at: string;
  /** Epoch milliseconds on the cluster's clock. */
  expires_at: number;
}

interface Version {
  if_seq_no: number;
  if_primary_term: number;
}

const DEFAULT_TTL_MS = 60_000;

/** The one index that holds the locks of every alias (a document per lock held). */
export const LOCK_INDEX = 'ppa-indexer-locks';

/** Where the lock of `alias` lives. */
export function lockLocation(alias: string): { index: string; id: string } {
  return { index: LOCK_INDEX, id: alias };
}

/**
 * The cluster's current time (epoch ms), as the node that answers reports it: the clock every lock expiry is
 * measured on.
 */
export async function clusterNow(client: Client): Promise<number> {
  const stats = await client.nodes.stats({
    node_id: '_local',
    metric: 'process',
    filter_path: 'nodes.*.timestamp',
  });
  const timestamp = Object.values(stats.nodes ?? {})[0]?.timestamp;
  if (typeof timestamp !== 'number')
    throw new Error('the cluster did not report its time (_nodes/_local/stats)');
  return timestamp;
}

function statusOf(error: unknown): number | undefined {
  return (error as { meta?: { statusCode?: number } }).meta?.statusCode;
}

export class AliasLock {
  private lostReason: string | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: Client,
    private readonly location: { index: string; id: string },
    private readonly document: LockDocument,
    private version: Version,
    private readonly ttlMs: number,
    private readonly holder: string,
  ) {}

  static async acquire(client: Client, alias: string, options: LockOptions = {}): Promise<AliasLock> {
    const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    const guards = options.guards ?? 'generations';
    const { holder: label } = GUARDED[guards];
    const location = lockLocation(lockName(alias, guards));
    await ensureLockIndex(client);
    const now = await clusterNow(client);
    const document: LockDocument = {
      alias: lockName(alias, guards),
      owner: options.owner ?? `${hostname()} pid ${process.pid}`,
      acquired_at: new Date(now).toISOString(),
      expires_at: now + ttlMs,
    };
    try {
      // Never retried: a create that timed out but succeeded, sent again, would find our own lock and refuse.
      const created = await client.index(
        { ...location, op_type: 'create', document, refresh: false },
        { maxRetries: 0 },
      );
      return new AliasLock(client, location, document, versionOf(created), ttlMs, label).startHeartbeat();
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
    }
    const held = await client.get<LockDocument>(location);
    const holder = held._source;
    const heldNow = await clusterNow(client);
    if (holder && holder.expires_at > heldNow && !heldByDeadProcessHere(holder.owner)) {
      const seconds = Math.ceil((holder.expires_at - heldNow) / 1000);
      throw new LockedError(
        `another ${label} of alias "${alias}" is running (lock held by ${holder.owner} since ${holder.acquired_at}; ` +
          `it expires in ${seconds}s unless that run keeps it alive)`,
      );
    }
    try {
      const taken = await client.index({ ...location, document, ...versionOf(held), refresh: false });
      return new AliasLock(client, location, document, versionOf(taken), ttlMs, label).startHeartbeat();
    } catch (error) {
      if (statusOf(error) === 409)
        throw new LockedError(`another ${label} of alias "${alias}" just took the expired lock`);
      throw error;
    }
  }

  /** Throws when the heartbeat could not keep the lock (another run may now hold it). */
  assertHeld(): void {
    if (this.lostReason !== null) throw new LockLostError(`lost the ${this.holder} lock: ${this.lostReason}`);
  }

  /** Extends the expiry now; used by the heartbeat and right before the alias swap. */
  extend(): Promise<void> {
    // One write at a time: two overlapping writes with the same if_seq_no would conflict with each other.
    const next = this.writes.then(() => this.writeExpiry());
    this.writes = next.catch(() => undefined);
    return next;
  }

  async release(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await this.writes; // a heartbeat in flight would otherwise make our delete look like a lost lock
    if (this.lostReason !== null) return;
    try {
      await this.client.delete({ ...this.location, ...this.version, refresh: false });
    } catch (error) {
      // 404/409: it expired and someone else took it; theirs now.
      if (statusOf(error) !== 404 && statusOf(error) !== 409) throw error;
    }
  }

  private async writeExpiry(): Promise<void> {
    this.assertHeld();
    try {
      const now = await clusterNow(this.client);
      const updated = await this.client.index({
        ...this.location,
        document: { ...this.document, expires_at: now + this.ttlMs },
        ...this.version,
        refresh: false,
      });
      this.version = versionOf(updated);
    } catch (error) {
      if (statusOf(error) === 409 || statusOf(error) === 404) {
        this.lostReason = 'another run replaced it after it expired';
      }
      throw error;
    }
  }

  private startHeartbeat(): this {
    this.heartbeat = setInterval(
      () => {
        this.extend().catch(() => {
          // A failed heartbeat is retried on the next tick; a replaced lock is reported by assertHeld().
        });
      },
      Math.max(1000, Math.floor(this.ttlMs / 3)),
    );
    this.heartbeat.unref();
    return this;
  }
}

/**
 * A lock taken on this host by a process that no longer runs (killed with -9, crashed) is taken over at once
 * rather than after its expiry, so a restarted sync goes on within seconds. Only the default owner form
 * ("<host> pid <n>") is read; our own pid is never "dead" (two runs in one process still exclude each other).
 */
function heldByDeadProcessHere(owner: string): boolean {
  const match = /^(.*) pid (\d+)$/.exec(owner);
  if (!match || match[1] !== hostname()) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function versionOf(response: { _seq_no?: number; _primary_term?: number }): Version {
  return { if_seq_no: response._seq_no ?? 0, if_primary_term: response._primary_term ?? 0 };
}

/** Creates LOCK_INDEX when it is missing (two runs at once: one creates it, the other finds it). */
export async function ensureLockIndex(client: Client): Promise<void> {
  const index = LOCK_INDEX;
  if (await client.indices.exists({ index })) return;
  try {
    await client.indices.create({
      index,
      // A copy on a second node when there is one: losing a node must not block every later run.
      settings: { number_of_shards: 1, number_of_replicas: 0, auto_expand_replicas: '0-1' },
      mappings: {
        dynamic: 'strict',
        properties: {
          alias: { type: 'keyword' },
          owner: { type: 'keyword' },
          acquired_at: { type: 'date' },
          expires_at: { type: 'date', format: 'epoch_millis' },
        },
      },
    });
  } catch (error) {
    if (
      (error as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type !==
      'resource_already_exists_exception'
    ) {
      throw error;
    }
  }
}
