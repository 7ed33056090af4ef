// One reindex per alias at a time. The lock is a document created with op_type=create in a small index that
// retention never touches (`<alias>.indexer-lock` does not match `<alias>-<timestamp>`). It carries an expiry
// that a heartbeat extends, so a crashed run blocks others only until the expiry; an expired lock is taken
// over with optimistic concurrency (if_seq_no / if_primary_term), so two runs cannot both take it.
import type { Client } from '@elastic/elasticsearch';
import { hostname } from 'node:os';
import { LockedError } from './errors.js';

export interface LockOptions {
  ttlMs?: number;
  /** Who holds it, for the refusal message. */
  owner?: string;
  now?: () => number;
}

interface LockDocument {
  owner: string;
  acquired_at: string;
  expires_at: number;
}

interface Version {
  if_seq_no: number;
  if_primary_term: number;
}

const LOCK_ID = 'reindex';
const DEFAULT_TTL_MS = 60_000;

export function lockIndexName(alias: string): string {
  return `${alias}.indexer-lock`;
}

function statusOf(error: unknown): number | undefined {
  return (error as { meta?: { statusCode?: number } }).meta?.statusCode;
}

export class ReindexLock {
  private lostReason: string | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly document: LockDocument,
    private version: Version,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  static async acquire(client: Client, alias: string, options: LockOptions = {}): Promise<ReindexLock> {
    const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    const now = options.now ?? Date.now;
    const index = lockIndexName(alias);
    const document: LockDocument = {
      owner: options.owner ?? `${hostname()} pid ${process.pid}`,
      acquired_at: new Date(now()).toISOString(),
      expires_at: now() + ttlMs,
    };
    await ensureLockIndex(client, index);
    try {
      const created = await client.index({ index, id: LOCK_ID, op_type: 'create', document, refresh: false });
      return new ReindexLock(client, index, document, versionOf(created), ttlMs, now).startHeartbeat();
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
    }
    const held = await client.get<LockDocument>({ index, id: LOCK_ID });
    const holder = held._source;
    if (holder && holder.expires_at > now()) {
      const seconds = Math.ceil((holder.expires_at - now()) / 1000);
      throw new LockedError(
        `another reindex of alias "${alias}" is running (lock held by ${holder.owner} since ${holder.acquired_at}; ` +
          `it expires in ${seconds}s unless that run keeps it alive)`,
      );
    }
    try {
      const taken = await client.index({ index, id: LOCK_ID, document, ...versionOf(held), refresh: false });
      return new ReindexLock(client, index, document, versionOf(taken), ttlMs, now).startHeartbeat();
    } catch (error) {
      if (statusOf(error) === 409)
        throw new LockedError(`another reindex of alias "${alias}" just took the expired lock`);
      throw error;
    }
  }

  /** Throws when the heartbeat could not keep the lock (another run may now hold it). */
  assertHeld(): void {
    if (this.lostReason !== null) throw new Error(`lost the reindex lock: ${this.lostReason}`);
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
      await this.client.delete({ index: this.index, id: LOCK_ID, ...this.version, refresh: false });
    } catch (error) {
      // 404/409: it expired and someone else took it; theirs now.
      if (statusOf(error) !== 404 && statusOf(error) !== 409) throw error;
    }
  }

  private async writeExpiry(): Promise<void> {
    this.assertHeld();
    try {
      const updated = await this.client.index({
        index: this.index,
        id: LOCK_ID,
        document: { ...this.document, expires_at: this.now() + this.ttlMs },
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

function versionOf(response: { _seq_no?: number; _primary_term?: number }): Version {
  return { if_seq_no: response._seq_no ?? 0, if_primary_term: response._primary_term ?? 0 };
}

async function ensureLockIndex(client: Client, index: string): Promise<void> {
  if (await client.indices.exists({ index })) return;
  try {
    await client.indices.create({
      index,
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: {
        dynamic: 'strict',
        properties: {
          owner: { type: 'keyword' },
          acquired_at: { type: 'date' },
          expires_at: { type: 'date', format: 'epoch_millis' },
        },
      },
    });
  } catch (error) {
    // Two runs creating it at once: one wins, the other finds it there.
    if (
      (error as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type !==
      'resource_already_exists_exception'
    ) {
      throw error;
    }
  }
}
