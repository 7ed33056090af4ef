// The change log's writer (indexContract/changeLog.ts; docs/record.md, "The change log and the guards"). One
// writer at a time per alias (the lock `<alias>:changes`, waited for): a sync batch, or a reindex's or rollback's
// diff with its swap. Within a session events get the sequences after the head's, are written invisible (the
// log's refresh is off) and become visible together on publish(), after what they describe is searchable. So a
// reader never sees a sequence before an earlier one, nor an event before its change.
//
// A writer that dies between writing events and publishing leaves them pending in the head: the next writer
// publishes them when they are true (sync's, or a swap that happened: the alias points at `pending_index`) and
// deletes them otherwise.
import type { Client, estypes } from '@elastic/elasticsearch';
import { randomBytes } from 'node:crypto';
import {
  changeLogIndexName,
  changeTypeOf,
  DEFAULT_RETENTION_DAYS,
  HEAD_ID,
  type ChangeFields,
  type ChangeLogHead,
  type ChangeReason,
} from '../../indexContract/changeLog.js';
import type { IndexDocument } from '../../indexContract/document.js';
import { readIndexDefinition } from '../../indexContract/mapping.js';
import { aliasTarget } from '../elasticsearch/aliases.js';
import { recordSyncRun } from '../elasticsearch/indexMeta.js';
import { AliasLock } from '../elasticsearch/lock.js';
import { LockedError } from '../errors.js';
import type { IndexerLogger } from '../indexerLog.js';

/** One change to log: why, and the PPA as served after it (an upsert) or as last served before it (a removal). */
export interface LoggedChange {
  reason: ChangeReason;
  document: IndexDocument;
}

export interface ChangeLogOptions {
  /** CHANGES_RETENTION_DAYS (default 90): older events are pruned. */
  retentionDays?: number;
  /** Between two prunes by this process (default 10 minutes). */
  pruneEveryMs?: number;
  /** How long a writer waits for another to finish (default 2 minutes). */
  lockWaitMs?: number;
  logger?: IndexerLogger;
}

const EVENTS_PER_BULK = 500;
const LOCK_TTL_MS = 30_000;

/** The log's index: the generations' mapping (filters and `q` apply to events), the `change` object, the head. */
export function changeLogDefinition(): {
  settings: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
} {
  const { mappings } = readIndexDefinition();
  return {
    settings: {
      index: {
        number_of_shards: 1,
        number_of_replicas: 0,
        // A copy on another node when there is one, as the lock index: a lost node must not lose the log.
        auto_expand_replicas: '0-1',
        // Visible only when a writer publishes (explicit refresh): never a later event before an earlier one.
        refresh_interval: '-1',
      },
    },
    mappings: {
      dynamic: 'strict',
      properties: {
        ...mappings.properties,
        change: {
          properties: {
            seq: { type: 'long' },
            type: { type: 'keyword' },
            reason: { type: 'keyword' },
            at: { type: 'date' },
          },
        },
        log: { type: 'object', enabled: false },
      },
    },
  };
}

function statusOf(error: unknown): number | undefined {
  return (error as { meta?: { statusCode?: number } }).meta?.statusCode;
}

function errorType(error: unknown): string | undefined {
  return (error as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
}

interface Version {
  if_seq_no: number;
  if_primary_term: number;
}

export class ChangeLog {
  readonly index: string;
  private ensured = false;
  private lastPruneMs = 0;
  private readonly logger: IndexerLogger;

  constructor(
    private readonly client: Client,
    private readonly alias: string,
    private readonly options: ChangeLogOptions = {},
  ) {
    this.index = changeLogIndexName(alias);
    this.logger = options.logger ?? { info: () => undefined, warn: () => undefined, error: () => undefined };
  }

  /** Creates the log and its head when missing; gives an existing log the fields this release writes. */
  async ensure(): Promise<void> {
    if (this.ensured) return;
    const { client, index } = this;
    const definition = changeLogDefinition();
    if (await client.indices.exists({ index })) {
      await client.indices.putMapping({ index, properties: definition.mappings.properties! });
    } else {
      try {
        await client.indices.create({ index, ...definition });
      } catch (error) {
        if (errorType(error) !== 'resource_already_exists_exception') throw error;
      }
    }
    const now = new Date().toISOString();
    const head: ChangeLogHead = {
      epoch: randomBytes(6).toString('base64url').replace(/[-_]/g, 'x'),
      created_at: now,
      seq: 0,
      pending_to: 0,
      pending_index: null,
      pruned_through: 0,
      retained_since: now,
      last_at: null,
    };
    try {
      await client.index({ index, id: HEAD_ID, op_type: 'create', document: { log: head }, refresh: true });
    } catch (error) {
      if (statusOf(error) !== 409) throw error;
    }
    this.ensured = true;
  }

  /** Runs `work` as the log's only writer; events it appended and did not publish are taken back on failure. */
  async write<T>(work: (session: ChangeLogSession) => Promise<T>): Promise<T> {
    await this.ensure();
    const lock = await this.acquireLock();
    try {
      const session = await ChangeLogSession.open(this.client, this.index, this.alias, lock, this.logger);
      let result: T;
      try {
        result = await work(session);
        if (session.unpublished > 0) await session.discard();
      } catch (error) {
        await session
          .discard()
          .catch((discardError: unknown) =>
            this.logger.warn({ err: discardError }, 'could not take back unpublished change-log events'),
          );
        throw error;
      }
      await this.pruneIfDue(session).catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not prune the change log'),
      );
      return result;
    } finally {
      await lock.release().catch(() => undefined);
    }
  }

  private async acquireLock(): Promise<AliasLock> {
    const deadline = Date.now() + (this.options.lockWaitMs ?? 120_000);
    for (let attempt = 0; ; attempt++) {
      try {
        return await AliasLock.acquire(this.client, this.alias, { guards: 'changeLog', ttlMs: LOCK_TTL_MS });
      } catch (error) {
        if (!(error instanceof LockedError) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)));
      }
    }
  }

  /** Deletes events older than the retention, at most every pruneEveryMs, and records how far it went. */
  private async pruneIfDue(session: ChangeLogSession): Promise<void> {
    const now = Date.now();
    if (now - this.lastPruneMs < (this.options.pruneEveryMs ?? 600_000)) return;
    this.lastPruneMs = now;
    const retentionMs = (this.options.retentionDays ?? DEFAULT_RETENTION_DAYS) * 86_400_000;
    const cutoff = new Date(now - retentionMs).toISOString();
    const newestOld = await this.client.search<{ change: ChangeFields }>({
      index: this.index,
      size: 1,
      sort: [{ 'change.seq': 'desc' }],
      _source: ['change.seq'],
      query: { range: { 'change.at': { lt: cutoff } } },
    });
    const through = newestOld.hits.hits[0]?._source?.change.seq;
    if (through === undefined || through <= session.head.pruned_through) return;
    // Events are ids `<seq>`: deleted by id, a batch at a time (no _delete_by_query, which not every cluster has).
    for (let from = session.head.pruned_through + 1; from <= through; from += EVENTS_PER_BULK) {
      const last = Math.min(through, from + EVENTS_PER_BULK - 1);
      const operations = Array.from({ length: last - from + 1 }, (_, i) => ({
        delete: { _index: this.index, _id: String(from + i) },
      }));
      await this.client.bulk({ operations });
    }
    await this.client.indices.refresh({ index: this.index });
    await session.updateHead({ pruned_through: through, retained_since: cutoff });
    // What the changes operation answers changed: the live index's data version moves on, so response caches drop
    // answers computed before (a `since` now pruned must be 410, not a kept 200).
    const live = await aliasTarget(this.client, this.alias);
    if (live) await recordSyncRun(this.client, live, { changed: true });
    this.logger.info({ through, cutoff }, 'change log pruned');
  }
}

export class ChangeLogSession {
  /** Set once the change the pending events describe has happened: they are kept for the next writer to publish. */
  private happened = false;
  /** The `at` of the events appended in this session. */
  private appendedAt: string | null = null;

  private constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly lock: AliasLock,
    public head: ChangeLogHead,
    private version: Version,
  ) {}

  static async open(
    client: Client,
    index: string,
    alias: string,
    lock: AliasLock,
    logger: IndexerLogger,
  ): Promise<ChangeLogSession> {
    const read = await client.get<{ log: ChangeLogHead }>({ index, id: HEAD_ID });
    const session = new ChangeLogSession(client, index, lock, read._source!.log, versionOf(read));
    if (session.head.pending_to > session.head.seq) {
      // A writer died between writing and publishing: its events are true if they were sync's (written after
      // their change) or if the swap they describe happened.
      const { pending_index: pendingIndex } = session.head;
      const happened = pendingIndex === null || (await aliasTarget(client, alias)) === pendingIndex;
      logger.warn(
        { from: session.head.seq + 1, to: session.head.pending_to, pendingIndex, happened },
        happened
          ? 'publishing change-log events a dead writer left'
          : 'deleting change-log events of a swap that never happened',
      );
      if (happened) await session.publish();
      else await session.discard();
    }
    return session;
  }

  /** Events appended and not yet published. */
  get unpublished(): number {
    return this.head.pending_to - this.head.seq;
  }

  /** The token-to-be of the last event appended (the head's sequence once published). */
  get lastSeq(): number {
    return this.head.pending_to;
  }

  /**
   * Writes events after the head, invisible until publish(). `forIndex`: the index the alias must point at for
   * them to be true (a reindex's or rollback's target); null for sync's, written after their change is live.
   */
  async append(changes: readonly LoggedChange[], forIndex: string | null): Promise<void> {
    if (changes.length === 0) return;
    const first = this.head.pending_to + 1;
    // The head says what is pending before the events exist, so a writer that dies now leaves nothing unknown.
    await this.updateHead({ pending_to: this.head.pending_to + changes.length, pending_index: forIndex });
    const at = new Date().toISOString();
    this.appendedAt = at;
    for (let start = 0; start < changes.length; start += EVENTS_PER_BULK) {
      const slice = changes.slice(start, start + EVENTS_PER_BULK);
      const operations = slice.flatMap(({ reason, document }, offset) => {
        const seq = first + start + offset;
        const change: ChangeFields = { seq, type: changeTypeOf(reason), reason, at };
        return [{ index: { _index: this.index, _id: String(seq) } }, { ...document, change }];
      });
      const response = await this.client.bulk({
        operations,
        filter_path: 'errors,items.*.status,items.*.error.reason',
      });
      if (response.errors) {
        const failed = response.items.find((item) => (item.index?.status ?? 200) >= 300);
        throw new Error(
          `the change log refused an event: ${failed?.index?.error?.reason ?? 'unknown reason'}`,
        );
      }
    }
  }

  /** Makes every appended event visible at once and moves the head on. */
  async publish(): Promise<void> {
    if (this.unpublished === 0) return;
    await this.client.indices.refresh({ index: this.index });
    await this.updateHead({
      seq: this.head.pending_to,
      pending_index: null,
      ...(this.appendedAt ? { last_at: this.appendedAt } : {}),
    });
  }

  /**
   * Says that the change the appended events describe happened (the swap was made): if publishing fails from
   * here on, the events stay pending and the next writer publishes them (the alias points at their index).
   */
  markHappened(): void {
    this.happened = true;
  }

  /** Takes back the appended events (never visible: deleted by id before any refresh). */
  async discard(): Promise<void> {
    if (this.happened) return;
    const { seq, pending_to: to } = this.head;
    for (let from = seq + 1; from <= to; from += EVENTS_PER_BULK) {
      const ids = Array.from({ length: Math.min(EVENTS_PER_BULK, to - from + 1) }, (_, i) =>
        String(from + i),
      );
      await this.client.bulk({ operations: ids.map((id) => ({ delete: { _index: this.index, _id: id } })) });
    }
    await this.updateHead({ pending_to: seq, pending_index: null });
  }

  /** Writes the head (compare-and-set: a writer that lost its lock cannot overwrite another's head). */
  async updateHead(change: Partial<ChangeLogHead>): Promise<void> {
    this.lock.assertHeld();
    const head = { ...this.head, ...change };
    const written = await this.client.index({
      index: this.index,
      id: HEAD_ID,
      document: { log: head },
      ...this.version,
      refresh: false,
    });
    this.head = head;
    this.version = versionOf(written);
  }
}

function versionOf(response: { _seq_no?: number; _primary_term?: number }): Version {
  return { if_seq_no: response._seq_no ?? 0, if_primary_term: response._primary_term ?? 0 };
}
