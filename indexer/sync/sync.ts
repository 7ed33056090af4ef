// sync: applies what changed in the PostgreSQL relation since the live index's high-water mark to that index in
// place (docs/record.md, "PostgreSQL"). One run = one REPEATABLE READ snapshot:
//   1. rows with updated_at > mark − overlap, streamed in batches: a valid published record is written, an
//      unpublished one deleted, an invalid one reported (slug, field) and skipped;
//   2. when due, the slug comparison that deletes documents whose row no longer exists;
//   3. the mark moves to the snapshot's start, in the index's _meta, only after every batch was applied — a run
//      killed mid-batch is replayed whole by the next one (writes are idempotent).
// The overlap re-reads a window (default 60 s) so a transaction that committed after an earlier run, with an
// older updated_at, is still applied; a record re-read unchanged within the window is not sent again.
// The run resolves the alias first, so after a reindex swaps it the next run replays from the new generation's
// own mark.
import type { Client } from '@elastic/elasticsearch';
import { createHash } from 'node:crypto';
import pg from 'pg';
import QueryStream from 'pg-query-stream';
import type { PpaRecord } from '../../indexContract/record.js';
import { aliasTarget } from '../elasticsearch/aliases.js';
import { buildDocument } from '../elasticsearch/buildDocument.js';
import { applyChanges, type Change } from '../elasticsearch/changeBulk.js';
import { IndexerError, throwIfAborted } from '../errors.js';
import { addMissingFields } from '../elasticsearch/indexMapping.js';
import { readHighWaterMark, recordSyncGuard, recordSyncRun } from '../elasticsearch/indexMeta.js';
import type { ChangeLog } from '../changes/changeLog.js';
import { applyLogged, documentsById } from '../changes/loggedWrites.js';
import { indexedSlugs } from '../elasticsearch/servedEntries.js';
import {
  checkRemovals,
  DEFAULT_MAX_REMOVED,
  describeLimit,
  MassRemovalError,
  parseRemovalLimit,
  type RemovalLimit,
} from '../changes/removalGuard.js';
import {
  DEFAULT_RELATION,
  NO_JIT,
  quotedRelation,
  rowProblems,
  sortedSlugs,
  UTC_MICROSECONDS,
} from '../sources/postgresRelation.js';
import { vanishedSlugs } from '../slugOrder.js';
import { checkRecord, type FieldProblem } from '../sources/recordSchema.js';
import { postgresSourceError } from '../sources/sourceErrors.js';
import type { IndexerLogger } from '../indexerLog.js';
import { quoted, terminalSafe } from '../terminalText.js';

export const DEFAULT_OVERLAP_S = 60;
const DEFAULT_BATCH_SIZE = 500;
const SLUGS_PER_PAGE = 10_000;

export interface SyncOptions {
  client: Client;
  alias: string;
  /** postgres:// URL. */
  url: string;
  relation?: string;
  overlapSeconds?: number;
  /** Rows per fetch and per _bulk request (default 500). */
  batchSize?: number;
  logger?: IndexerLogger;
  signal?: AbortSignal;
  /** Where the changes to the live index are logged (absent: not logged, as in a reindex's catch-up). */
  changeLog?: ChangeLog;
  /** How many of the live PPAs one run may remove before it applies nothing (default 5%). */
  maxRemoved?: RemovalLimit;
}

export interface SyncRunSummary {
  index: string;
  /** Published records written (new or changed). */
  written: number;
  /** Documents deleted: unpublished records, and vanished rows when reconciled. */
  deleted: number;
  /** Of those, rows that no longer exist (found by the slug comparison). */
  vanished: number;
  /** Invalid records reported and left as they were in the index. */
  skipped: number;
  /** Rows re-read in the overlap window, already applied. */
  unchanged: number;
  reconciled: boolean;
  /** Events written to the change log. */
  logged: number;
  /** Where the next run reads on from (the snapshot's start; the overlap window is taken off it). */
  high_water_mark: string;
  seconds: number;
}

interface Applied {
  digest: string;
  updatedAtMs: number;
}

interface ChangedRow {
  slug: string;
  updated_at: string;
  record: string;
}

function changedDocuments(summary: SyncRunSummary): boolean {
  return summary.written + summary.deleted > 0;
}

/** 'slug "kahone-solar": capacity_mw must be >= 0' (terminal-safe). */
export function describeSkipped(slug: string, problems: FieldProblem[]): string {
  return `slug ${quoted(slug)}: ${terminalSafe(problems.map((p) => `${p.field} ${p.message}`).join('; '))}`;
}

export class Sync {
  private readonly relation: string;
  private readonly overlapSeconds: number;
  private readonly batchSize: number;
  private readonly logger: IndexerLogger;
  private pgClient: pg.Client | null = null;
  /** What this process applied (or reported invalid) per slug within the overlap window, for the live index. */
  private applied = new Map<string, Applied>();
  private target: string | null = null;
  /** This run's changes go to the live index: logged and guarded (a catch-up writes an index not yet live). */
  private live = false;

  constructor(private readonly options: SyncOptions) {
    this.relation = options.relation ?? DEFAULT_RELATION;
    quotedRelation(this.relation); // a bad name is a usage error before anything connects
    this.overlapSeconds = options.overlapSeconds ?? DEFAULT_OVERLAP_S;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.logger = options.logger ?? { info: () => undefined, warn: () => undefined, error: () => undefined };
  }

  /**
   * One run on the alias's live index. `shouldReconcile` gets the runs already made on the live index (kept in its _meta, so one-shot runs
   * from cron count too) and says whether this one compares slugs.
   */
  async run(shouldReconcile: (runsOnIndex: number) => boolean): Promise<SyncRunSummary> {
    const { client, alias } = this.options;
    const index = await aliasTarget(client, alias);
    if (index === null) throw new IndexerError(`alias "${alias}" does not exist: run a reindex first`);
    if (index !== this.target) {
      if (this.target !== null) this.logger.info({ index }, 'the alias moved: replaying onto the new index');
      await addMissingFields(client, index);
      this.applied = new Map();
      this.target = index;
    }
    this.live = true;
    return this.runOn(index, shouldReconcile);
  }

  /**
   * A reindex's last step before its swap: the changes committed since its snapshot, applied to the new index,
   * and the documents of rows deleted since, deleted, so it goes live as fresh as the one it replaces.
   * `snapshotSlugs` are the slugs of the reindex's snapshot in byte order: every document of the new index has
   * one of them or was written by this catch-up from a row that exists, so the slugs among them that are no
   * longer rows are all the documents to delete. Comparing them instead of the index's own slugs spares listing
   * the whole index; `vanished` then also counts rows deleted that were never in the index (unpublished).
   */
  async catchUp(index: string, snapshotSlugs: AsyncIterable<string>): Promise<SyncRunSummary> {
    this.applied = new Map();
    this.target = index;
    this.live = false;
    return this.runOn(index, () => true, snapshotSlugs);
  }

  private async runOn(
    index: string,
    shouldReconcile: (runsOnIndex: number) => boolean,
    reconcileCandidates?: AsyncIterable<string>,
  ): Promise<SyncRunSummary> {
    const started = performance.now();
    const { client, signal } = this.options;
    const { mark: from, runs, syncGuard } = await readHighWaterMark(client, index);
    const reconcile = shouldReconcile(runs);
    const db = await this.connection();
    const summary: SyncRunSummary = {
      index,
      written: 0,
      deleted: 0,
      vanished: 0,
      skipped: 0,
      unchanged: 0,
      reconciled: false,
      logged: 0,
      high_water_mark: from,
      seconds: 0,
    };
    await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      await db.query(NO_JIT);
      const { rows } = await db.query<{ mark: string }>(
        `SELECT to_char(now() AT TIME ZONE 'UTC', ${UTC_MICROSECONDS}) AS mark`,
      );
      const mark = rows[0]!.mark;
      // A run on the live index first counts what it would remove, and applies nothing past --max-removed.
      let vanished: string[] | undefined;
      if (this.live) {
        if (reconcile) vanished = await collect(this.vanished(db, this.indexedSlugs(index)));
        await this.guardRemovals(db, index, from, vanished?.length ?? 0, syncGuard?.since);
      }
      const changed = db.query(
        new QueryStream(
          `SELECT slug, to_char(updated_at AT TIME ZONE 'UTC', ${UTC_MICROSECONDS}) AS updated_at,
                  record::text AS record
             FROM ${quotedRelation(this.relation)}
            WHERE updated_at > $1::timestamptz - make_interval(secs => $2)
            ORDER BY updated_at`,
          [from, this.overlapSeconds],
          { batchSize: this.batchSize, highWaterMark: this.batchSize },
        ),
      );
      let batch: ChangedRow[] = [];
      try {
        for await (const row of changed as AsyncIterable<ChangedRow>) {
          batch.push(row);
          if (batch.length >= this.batchSize) {
            throwIfAborted(signal);
            await this.applyBatch(index, batch, summary);
            batch = [];
          }
        }
      } finally {
        changed.destroy();
      }
      throwIfAborted(signal);
      await this.applyBatch(index, batch, summary);
      if (reconcile) {
        await this.reconcile(
          db,
          index,
          summary,
          vanished ?? this.vanished(db, reconcileCandidates ?? this.indexedSlugs(index)),
        );
        summary.reconciled = true;
      }
      await db.query('COMMIT');
      throwIfAborted(signal);
      await recordSyncRun(client, index, { mark, runs: runs + 1, changed: changedDocuments(summary) });
      summary.high_water_mark = mark;
      this.forgetBefore(Date.parse(mark) - this.overlapSeconds * 1000);
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      // Batches applied before the failure are live: caches must still learn of them (the mark stays, so the
      // next run applies the rest). Best effort: the run's own error is the one to report.
      if (changedDocuments(summary))
        await recordSyncRun(client, index, { changed: true }).catch(() => undefined);
      throw error;
    }
    summary.seconds = Math.round((performance.now() - started) / 10) / 100;
    return summary;
  }

  async close(): Promise<void> {
    const db = this.pgClient;
    this.pgClient = null;
    await db?.end().catch(() => undefined);
  }

  private async connection(): Promise<pg.Client> {
    if (this.pgClient) return this.pgClient;
    const db = new pg.Client({ connectionString: this.options.url, application_name: 'ppa-indexer sync' });
    // A lost connection is reported by the run that uses it; the next run connects again.
    db.on('error', () => {
      if (this.pgClient === db) this.pgClient = null;
    });
    await db.connect().catch((error: unknown) => {
      throw postgresSourceError(this.options.url, error);
    });
    this.pgClient = db;
    return db;
  }

  private async applyBatch(index: string, rows: ChangedRow[], summary: SyncRunSummary): Promise<void> {
    const changes: Change[] = [];
    const seen: [string, Applied][] = [];
    for (const row of rows) {
      const applied: Applied = {
        digest: createHash('sha1').update(row.record).digest('base64'),
        updatedAtMs: Date.parse(row.updated_at),
      };
      if (this.applied.get(row.slug)?.digest === applied.digest) {
        summary.unchanged++;
        continue;
      }
      seen.push([row.slug, applied]);
      const record = JSON.parse(row.record) as unknown;
      const problems = [...checkRecord(record), ...rowProblems(row.slug, record)];
      if (problems.length > 0) {
        summary.skipped++;
        this.logger.warn(
          { slug: row.slug, problems },
          `skipped invalid record: ${describeSkipped(row.slug, problems)}`,
        );
        continue;
      }
      const valid = record as PpaRecord;
      if (valid.published) changes.push({ kind: 'write', id: valid.slug, document: buildDocument(valid) });
      else changes.push({ kind: 'delete', id: valid.slug });
    }
    if (changes.length > 0) await this.apply(index, changes, 'unpublished', summary);
    for (const change of changes) {
      if (change.kind === 'write') summary.written++;
      else summary.deleted++;
    }
    if (changes.length > 0) {
      this.logger.info({ index, changes: changes.length }, 'batch applied');
    }
    // Only once the batch is in the index: a failed batch is sent again by the next run.
    for (const [slug, applied] of seen) this.applied.set(slug, applied);
  }

  /** Writes a batch: on the live index logged in the change log, on a catch-up's index as it is. */
  private async apply(
    index: string,
    changes: Change[],
    removal: 'unpublished' | 'deleted',
    summary: SyncRunSummary,
  ): Promise<void> {
    const { client, changeLog, alias } = this.options;
    if (this.live && changeLog) {
      summary.logged += await applyLogged(client, changeLog, { alias, index }, changes, () => removal);
    } else await applyChanges(client, index, changes);
  }

  /** The slugs among `candidates` (ascending in byte order) that are no longer rows of the relation. */
  private vanished(db: pg.Client, candidates: AsyncIterable<string>): AsyncGenerator<string> {
    return vanishedSlugs(candidates, sortedSlugs(db, quotedRelation(this.relation)));
  }

  /**
   * The removal guard: the documents this run would delete (rows changed to unpublished whose document is
   * live, and `vanished` rows) against --max-removed of the live PPAs. Past it, the run applies nothing: the
   * state goes into the live index's _meta (the API's /health/ready and metrics show it) and the run fails
   * with exit 5; follow mode keeps retrying, so a repaired source lets the next run through.
   */
  private async guardRemovals(
    db: pg.Client,
    index: string,
    from: string,
    vanished: number,
    heldSince: string | undefined,
  ): Promise<void> {
    const { client } = this.options;
    const limit = this.options.maxRemoved ?? parseRemovalLimit(DEFAULT_MAX_REMOVED);
    const { rows } = await db.query<{ slug: string }>(
      `SELECT slug FROM ${quotedRelation(this.relation)}
        WHERE updated_at > $1::timestamptz - make_interval(secs => $2)
          AND (record::jsonb)->'published' = 'false'::jsonb`,
      [from, this.overlapSeconds],
    );
    let unpublished = 0;
    for (let start = 0; start < rows.length; start += 1000) {
      const ids = rows.slice(start, start + 1000).map((row) => row.slug);
      unpublished += (await documentsById(client, index, ids)).size;
    }
    const { count: live } = await client.count({ index });
    try {
      checkRemovals('sync', unpublished + vanished, live, limit);
    } catch (error) {
      if (error instanceof MassRemovalError) {
        await recordSyncGuard(client, index, {
          since: heldSince ?? new Date().toISOString(),
          removals: error.removals,
          live,
          max_removed: describeLimit(limit),
          detail: error.message,
        });
      }
      throw error;
    }
    if (heldSince !== undefined) await recordSyncGuard(client, index, null);
  }

  /** Deletes the documents of `vanished` slugs (rows that no longer exist), a batch at a time. */
  private async reconcile(
    db: pg.Client,
    index: string,
    summary: SyncRunSummary,
    vanished: AsyncIterable<string> | Iterable<string>,
  ): Promise<void> {
    let doomed: Change[] = [];
    for await (const slug of vanished) {
      doomed.push({ kind: 'delete', id: slug });
      if (doomed.length >= this.batchSize) {
        await this.deleteVanished(index, doomed, summary);
        doomed = [];
      }
    }
    await this.deleteVanished(index, doomed, summary);
  }

  private async deleteVanished(index: string, doomed: Change[], summary: SyncRunSummary): Promise<void> {
    if (doomed.length === 0) return;
    await this.apply(index, doomed, 'deleted', summary);
    for (const change of doomed) {
      this.applied.delete(change.id);
      this.logger.info({ slug: change.id }, 'deleted: its row no longer exists');
    }
    summary.vanished += doomed.length;
    summary.deleted += doomed.length;
  }

  private indexedSlugs(index: string): AsyncGenerator<string> {
    return indexedSlugs(this.options.client, index, SLUGS_PER_PAGE);
  }

  private forgetBefore(cutoffMs: number): void {
    for (const [slug, applied] of this.applied) if (applied.updatedAtMs < cutoffMs) this.applied.delete(slug);
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
