// One sync run on one index, shared by sync (the live index, sync.ts) and a reindex's catch-up (the new index,
// catchUp.ts). One run = one snapshot of the relation (sources/postgresChanges.ts):
//   1. rows with updated_at > mark − overlap, in batches: a valid published record is written, an unpublished
//      one deleted, an invalid one reported (slug, field) and skipped;
//   2. when due, the slug comparison that deletes documents whose row no longer exists;
//   3. the mark moves to the snapshot's start, in the index's _meta, only after every batch was applied — a run
//      killed mid-batch is replayed whole by the next one (writes are idempotent).
// A record re-read unchanged within the overlap window is not sent again (RecentlyApplied).
import type { Client } from '@elastic/elasticsearch';
import { createHash } from 'node:crypto';
import { peerLookup, type PeerLookup } from '../../indexContract/flags.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { buildDocument } from '../elasticsearch/buildDocument.js';
import type { Change } from '../elasticsearch/changeBulk.js';
import { readHighWaterMark, recordSyncRun } from '../elasticsearch/indexMeta.js';
import { throwIfAborted } from '../errors.js';
import type { IndexerLogger } from '../indexerLog.js';
import type { ChangedRow, ChangeSnapshot, PostgresChangeReader } from '../sources/postgresChanges.js';
import { rowProblems } from '../sources/postgresRelation.js';
import { checkRecord, type FieldProblem } from '../sources/recordSchema.js';
import { quoted, terminalSafe } from '../terminalText.js';

export const DEFAULT_OVERLAP_S = 60;
export const DEFAULT_BATCH_SIZE = 500;

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

/** 'slug "kahone-solar": capacity_mw must be >= 0' (terminal-safe). */
export function describeSkipped(slug: string, problems: FieldProblem[]): string {
  return `slug ${quoted(slug)}: ${terminalSafe(problems.map((p) => `${p.field} ${p.message}`).join('; '))}`;
}

/** What this process applied (or reported invalid) per slug within the overlap window, for one index. */
export class RecentlyApplied {
  private readonly bySlug = new Map<string, { digest: string; updatedAtMs: number }>();

  has(slug: string, digest: string): boolean {
    return this.bySlug.get(slug)?.digest === digest;
  }

  set(slug: string, digest: string, updatedAtMs: number): void {
    this.bySlug.set(slug, { digest, updatedAtMs });
  }

  delete(slug: string): void {
    this.bySlug.delete(slug);
  }

  forgetBefore(cutoffMs: number): void {
    for (const [slug, { updatedAtMs }] of this.bySlug) if (updatedAtMs < cutoffMs) this.bySlug.delete(slug);
  }
}

/** What differs between a run on the live index and a catch-up on a new one. */
export interface SyncTarget {
  /**
   * Called in the snapshot before anything is written (the live index's removal guard runs here); returns the
   * slugs whose documents the reconcile deletes, read when it runs.
   */
  prepare(
    snapshot: ChangeSnapshot,
    run: { from: string; reconcile: boolean; heldSince: string | undefined },
  ): Promise<AsyncIterable<string> | Iterable<string>>;
  /** Writes a batch; returns how many events it logged. */
  write(changes: Change[], removal: 'unpublished' | 'deleted'): Promise<number>;
}

export interface SyncRun {
  client: Client;
  index: string;
  reader: PostgresChangeReader;
  target: SyncTarget;
  recent: RecentlyApplied;
  /** Gets the runs already made on the index (kept in its _meta, so one-shot runs from cron count too). */
  shouldReconcile: (runsOnIndex: number) => boolean;
  overlapSeconds: number;
  batchSize: number;
  logger: IndexerLogger;
  signal?: AbortSignal;
}

const changedDocuments = (summary: SyncRunSummary): boolean => summary.written + summary.deleted > 0;

export async function runOnIndex(run: SyncRun): Promise<SyncRunSummary> {
  const started = performance.now();
  const { client, index, signal } = run;
  const { mark: from, runs, syncGuard, fences } = await readHighWaterMark(client, index);
  // A changed record is flagged with the fences its index was built with; they move at the next reindex.
  const peers = peerLookup(fences);
  const reconcile = run.shouldReconcile(runs);
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
  try {
    const mark = await run.reader.snapshot(async (snapshot) => {
      const vanished = await run.target.prepare(snapshot, { from, reconcile, heldSince: syncGuard?.since });
      for await (const batch of snapshot.changedRows(from, run.overlapSeconds, run.batchSize)) {
        throwIfAborted(signal);
        await applyBatch(run, batch, summary, peers);
      }
      throwIfAborted(signal);
      if (reconcile) {
        await deleteVanished(run, vanished, summary);
        summary.reconciled = true;
      }
      return snapshot.mark;
    });
    throwIfAborted(signal);
    await recordSyncRun(client, index, { mark, runs: runs + 1, changed: changedDocuments(summary) });
    summary.high_water_mark = mark;
    run.recent.forgetBefore(Date.parse(mark) - run.overlapSeconds * 1000);
  } catch (error) {
    // Batches applied before the failure are live: caches must still learn of them (the mark stays, so the
    // next run applies the rest). Best effort: the run's own error is the one to report.
    if (changedDocuments(summary))
      await recordSyncRun(client, index, { changed: true }).catch(() => undefined);
    throw error;
  }
  summary.seconds = Math.round((performance.now() - started) / 10) / 100;
  return summary;
}

async function applyBatch(
  run: SyncRun,
  rows: ChangedRow[],
  summary: SyncRunSummary,
  peers: PeerLookup,
): Promise<void> {
  const changes: Change[] = [];
  const seen: [slug: string, digest: string, updatedAtMs: number][] = [];
  for (const row of rows) {
    const digest = createHash('sha1').update(row.record).digest('base64');
    if (run.recent.has(row.slug, digest)) {
      summary.unchanged++;
      continue;
    }
    seen.push([row.slug, digest, Date.parse(row.updated_at)]);
    const record = JSON.parse(row.record) as unknown;
    const problems = [...checkRecord(record), ...rowProblems(row.slug, record)];
    if (problems.length > 0) {
      summary.skipped++;
      run.logger.warn(
        { slug: row.slug, problems },
        `skipped invalid record: ${describeSkipped(row.slug, problems)}`,
      );
      continue;
    }
    const valid = record as PpaRecord;
    if (valid.published)
      changes.push({ kind: 'write', id: valid.slug, document: buildDocument(valid, peers) });
    else changes.push({ kind: 'delete', id: valid.slug });
  }
  if (changes.length > 0) summary.logged += await run.target.write(changes, 'unpublished');
  for (const change of changes) {
    if (change.kind === 'write') summary.written++;
    else summary.deleted++;
  }
  if (changes.length > 0) {
    run.logger.info({ index: run.index, changes: changes.length }, 'batch applied');
  }
  // Only once the batch is in the index: a failed batch is sent again by the next run.
  for (const [slug, digest, updatedAtMs] of seen) run.recent.set(slug, digest, updatedAtMs);
}

/** Deletes the documents of `vanished` slugs (rows that no longer exist), a batch at a time. */
async function deleteVanished(
  run: SyncRun,
  vanished: AsyncIterable<string> | Iterable<string>,
  summary: SyncRunSummary,
): Promise<void> {
  let doomed: Change[] = [];
  const flush = async (): Promise<void> => {
    if (doomed.length === 0) return;
    summary.logged += await run.target.write(doomed, 'deleted');
    for (const change of doomed) {
      run.recent.delete(change.id);
      run.logger.info({ slug: change.id }, 'deleted: its row no longer exists');
    }
    summary.vanished += doomed.length;
    summary.deleted += doomed.length;
    doomed = [];
  };
  for await (const slug of vanished) {
    doomed.push({ kind: 'delete', id: slug });
    if (doomed.length >= run.batchSize) await flush();
  }
  await flush();
}
