// reindex: validate the whole source (a file or a PostgreSQL snapshot, indexer/recordSource.ts), build a fresh `<alias>-<timestamp>` index, check its count, swap the
// alias in one call, prune old indices. Any failure or interruption removes the new index; the alias stays put.
import type { Client } from '@elastic/elasticsearch';
import type { Readable } from 'node:stream';
import type { IndexerLogger } from '../indexerLog.js';
import { aliasTarget, applyRetention, swapAlias } from '../elasticsearch/aliases.js';
import { bulkLoad, type LoadableDocument } from '../elasticsearch/bulkLoad.js';
import type { IndexDocument } from '../../indexContract/document.js';
import { buildDocument } from '../elasticsearch/buildDocument.js';
import {
  EmptySourceError,
  InterruptedError,
  SourceChangedError,
  throwIfAborted,
  UsageError,
} from '../errors.js';
import { indexDefinition, LIVE_SETTINGS, replicasFor } from '../elasticsearch/indexMapping.js';
import { indexNameFor } from '../../indexContract/indexName.js';
import { AliasLock } from '../elasticsearch/lock.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { openRecordSource } from '../sources/openSource.js';
import { catchUp } from '../sync/catchUp.js';
import type { RecordSource } from '../sources/recordSource.js';
import type { SourceFormat } from '../sources/source.js';
import { InvalidSourceError, type InvalidRecord, type SourceReport } from '../sources/validateSource.js';
import { ChangeLog, type ChangeLogOptions } from '../changes/changeLog.js';
import { appendGenerationChange } from '../changes/generationChange.js';
import { BuiltEntries } from '../changes/builtEntries.js';
import { compareGenerations, compareWithBuilt } from '../changes/compareGenerations.js';
import type { GenerationDiff } from '../changes/generationDiff.js';
import {
  checkRemovals,
  DEFAULT_MAX_REMOVED,
  parseRemovalLimit,
  type RemovalLimit,
} from '../changes/removalGuard.js';

export type ProgressEvent =
  | { phase: 'validate'; records: number; bytes: number; totalBytes: number }
  | { phase: 'load'; indexed: number; total: number };

export interface ReindexOptions {
  client: Client;
  alias: string;
  /** A file path (NDJSON or JSON array), `-` for stdin, a readable stream, or a postgres:// URL. */
  source: string | Readable;
  /** With a postgres:// source: the relation to read (default ppa_index_records). */
  relation?: string;
  /** Indices to keep, the live one included (default 2: live + one for rollback). */
  keep?: number;
  skipInvalid?: boolean;
  /** Validate and build every document, write nothing. */
  dryRun?: boolean;
  signal?: AbortSignal;
  logger?: IndexerLogger;
  onProgress?: (event: ProgressEvent) => void;
  batchSize?: number;
  lockTtlMs?: number;
  /** Replicas of the new index; default: replicasFor(the cluster's data nodes). */
  replicas?: number;
  /** How long the new index may take to turn green (replicas assigned and copied) before the run fails. */
  greenTimeoutMs?: number;
  /** How many of the live PPAs the new generation may leave out before the run stops (default 5%). */
  maxRemoved?: RemovalLimit;
  /** The change log's retention and timing (CHANGES_RETENTION_DAYS). */
  changeLog?: ChangeLogOptions;
  /** Test seam: changes a document just before it is sent (to make Elasticsearch refuse one mid-run). */
  transformDocument?: (document: IndexDocument) => object;
}

export interface ReindexSummary {
  alias: string;
  /** The new live index; null for a dry run. */
  index: string | null;
  previousIndex: string | null;
  format: SourceFormat;
  read: number;
  invalid: number;
  unpublished: number;
  published: number;
  inactive: number;
  indexed: number;
  deletedIndices: string[];
  seconds: number;
  docsPerSecond: number;
  maxRssMb: number;
  dryRun: boolean;
  invalidRecords: InvalidRecord[];
  /** What the swap changed for clients (logged in the change log); null for the first generation and a dry run. */
  changes: Pick<GenerationDiff, 'added' | 'updated' | 'removed' | 'unchanged'> | null;
}

const silentLogger: IndexerLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as never;

/**
 * Pass 2: the documents of the valid, published records, in source order. `unpublished` collects the slugs of
 * the valid unpublished ones (the change log tells "unpublished" from "deleted").
 */
export async function* publishedDocuments(
  source: RecordSource,
  report: SourceReport,
  options: Pick<ReindexOptions, 'signal' | 'transformDocument'>,
  unpublished?: Set<string>,
): AsyncGenerator<LoadableDocument & { document: IndexDocument }> {
  for await (const item of source.items(options.signal ? { signal: options.signal } : {})) {
    if (report.invalidLines.has(item.line)) continue;
    // Pass 1 validated every record, and the source is checked for changes before the alias moves
    // (assertUnchanged), so validating again here would only double the CPU cost of a record.
    if ('unparsed' in item) throw new SourceChangedError(`${report.format} source`);
    const record = item.value as PpaRecord;
    if (!record.published) {
      unpublished?.add(record.slug);
      continue;
    }
    const document = buildDocument(record);
    yield {
      id: record.slug,
      body: options.transformDocument ? options.transformDocument(document) : document,
      document,
    };
  }
}

export async function reindex(options: ReindexOptions): Promise<ReindexSummary> {
  const started = performance.now();
  const { signal } = options;
  const keep = options.keep ?? 2;
  if (!Number.isInteger(keep) || keep < 1)
    throw new UsageError(`--keep must be an integer >= 1, got ${keep}`);

  const source = await openRecordSource(options.source, {
    ...(options.relation ? { relation: options.relation } : {}),
    ...(signal ? { signal } : {}),
  }).catch((error: unknown) => {
    throwIfAborted(signal);
    throw error;
  });
  try {
    const report = await validatePhase(source, options);
    const summary = (generation: Generation | null, indexed: number): ReindexSummary => {
      const seconds = (performance.now() - started) / 1000;
      return {
        alias: options.alias,
        index: generation?.index ?? null,
        previousIndex: generation?.previousIndex ?? null,
        format: report.format,
        read: report.read,
        invalid: report.invalid,
        unpublished: report.unpublished,
        published: report.published,
        inactive: report.inactive,
        indexed,
        deletedIndices: generation?.deletedIndices ?? [],
        seconds: Math.round(seconds * 100) / 100,
        docsPerSecond: Math.round(indexed / Math.max(seconds, 0.001)),
        maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        dryRun: Boolean(options.dryRun),
        invalidRecords: report.invalidRecords,
        changes: generation?.changes ?? null,
      };
    };

    if (options.dryRun) {
      // A dry run builds every document and never talks to Elasticsearch.
      let built = 0;
      for await (const _document of publishedDocuments(source, report, options)) built++;
      return summary(null, built);
    }
    const generation = await buildGeneration(source, report, keep, options);
    return summary(generation, generation.indexed);
  } finally {
    await source.close();
  }
}

interface Generation {
  index: string;
  previousIndex: string | null;
  indexed: number;
  deletedIndices: string[];
  changes: ReindexSummary['changes'];
}

/** Phase 1: every record checked before anything is written; refuses invalid (unless skipped) and empty sources. */
export async function validatePhase(source: RecordSource, options: ReindexOptions): Promise<SourceReport> {
  const { signal } = options;
  const logger = options.logger ?? silentLogger;
  const totalBytes = source.total;
  let bytes = 0;
  const report = await source
    .validate({
      ...(signal ? { signal } : {}),
      onAmount: (read) => (bytes = read),
      onRecord: (records) => {
        if (records % 1000 === 0) options.onProgress?.({ phase: 'validate', records, bytes, totalBytes });
      },
    })
    .catch((error: unknown) => {
      throwIfAborted(signal);
      throw error;
    });
  options.onProgress?.({ phase: 'validate', records: report.read, bytes: totalBytes, totalBytes });
  logger.info(
    {
      read: report.read,
      invalid: report.invalid,
      published: report.published,
      unpublished: report.unpublished,
    },
    'source validated',
  );
  if (report.invalid > 0 && !options.skipInvalid) throw new InvalidSourceError(report);
  if (report.invalid > 0)
    logger.warn({ invalid: report.invalid }, 'skipping invalid records (--skip-invalid)');
  if (report.published === 0) {
    throw new EmptySourceError(
      `the source has no valid published record (${report.read} read): refusing to make an empty index live`,
    );
  }
  return report;
}

/**
 * Phases 2–6 under the alias's lock: load a new index, verify it, replicate it, swap the alias, prune old ones. Any failure
 * or interruption before the swap deletes the new index, so the alias and what it serves stay as they were.
 */
async function buildGeneration(
  source: RecordSource,
  report: SourceReport,
  keep: number,
  options: ReindexOptions,
): Promise<Generation> {
  const { client, alias, signal } = options;
  const logger = options.logger ?? silentLogger;
  throwIfAborted(signal);
  const lock = await AliasLock.acquire(client, alias, options.lockTtlMs ? { ttlMs: options.lockTtlMs } : {});
  let newIndex: string | null = null;
  let swapped = false;
  try {
    const previousIndex = await aliasTarget(client, alias);
    const builtAt = new Date();
    newIndex = indexNameFor(alias, builtAt);
    const unpublished = new Set<string>();
    // What is written, noted for the comparison with the generation it replaces (changes/builtEntries.ts). Catch-up
    // (PostgreSQL) changes the new index after the build: then the index is read as it ends up, cut where the
    // noted slugs say, and only those cuts are kept.
    const built = previousIndex !== null ? new BuiltEntries() : undefined;
    const indexed = await loadPhase(source, report, newIndex, builtAt, lock, options, unpublished, built);
    const incoming: IncomingSide =
      built && !source.catchUpFrom ? built : { index: newIndex, bounds: built?.bounds() ?? [] };
    throwIfAborted(signal);
    await verifyPhase(client, source, report, newIndex, indexed, logger);
    throwIfAborted(signal);
    const changedSince = source.catchUpFrom?.();
    if (changedSince) await catchUp(client, newIndex, changedSince, logger);
    throwIfAborted(signal);
    await goLivePhase(client, newIndex, options);

    throwIfAborted(signal);
    const changes = await swapPhase(
      client,
      alias,
      previousIndex,
      newIndex,
      incoming,
      unpublished,
      lock,
      options,
      () => {
        swapped = true;
      },
    );
    logger.info({ alias, index: newIndex, previousIndex, ...changes }, 'alias swapped');

    const deletedIndices = await applyRetention(client, alias, keep, newIndex, previousIndex).catch(
      (error: unknown) => {
        // The new index is live and correct; failing to prune old ones is worth a warning, not a failed run.
        logger.warn({ err: error }, 'could not delete old indices');
        return [];
      },
    );
    return { index: newIndex, previousIndex, indexed, deletedIndices, changes };
  } catch (error) {
    if (newIndex && !swapped) await deleteQuietly(client, newIndex, logger);
    if (signal?.aborted && !(error instanceof InterruptedError))
      throw new InterruptedError(String(signal.reason));
    throw error;
  } finally {
    await lock.release().catch((error: unknown) => logger.warn({ err: error }, 'could not release the lock'));
  }
}

/** Phase 2: create the index with loading settings and bulk the published documents into it. */
async function loadPhase(
  source: RecordSource,
  report: SourceReport,
  index: string,
  builtAt: Date,
  lock: AliasLock,
  options: ReindexOptions,
  unpublished: Set<string>,
  built: BuiltEntries | undefined,
): Promise<number> {
  const { client, signal } = options;
  await client.indices.create({
    index,
    ...indexDefinition({ built_at: builtAt.toISOString(), records: report.published, ...source.meta() }),
  });
  (options.logger ?? silentLogger).info({ index }, 'loading new index');
  const documents = publishedDocuments(source, report, options, unpublished);
  return bulkLoad(client, index, built ? noted(documents, built) : documents, {
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    ...(signal ? { signal } : {}),
    checkpoint: () => lock.assertHeld(),
    onBatch: (done) => options.onProgress?.({ phase: 'load', indexed: done, total: report.published }),
  });
}

/** The incoming side of the swap's comparison: what the load noted as it wrote it, or the new index to read. */
type IncomingSide = BuiltEntries | { index: string; bounds: readonly string[] };

async function* noted<T extends { document: IndexDocument }>(
  documents: AsyncIterable<T>,
  built: BuiltEntries,
): AsyncGenerator<T> {
  for await (const item of documents) {
    built.add(item.document.slug, item.document.content_hash);
    yield item;
  }
}

/** Phase 3: the source is what was validated, the index is durable and holds exactly the published records. */
async function verifyPhase(
  client: Client,
  source: RecordSource,
  report: SourceReport,
  index: string,
  indexed: number,
  logger: IndexerLogger,
): Promise<void> {
  await source.assertUnchanged();
  const started = performance.now();
  await client.indices.putSettings({ index, settings: { index: LIVE_SETTINGS } });
  await client.indices.refresh({ index });
  const refreshed = performance.now();
  // A Lucene commit of everything loaded: what the async translog held would otherwise die with a killed node.
  // The first flush also persists the global checkpoint that the loading (async translog) left behind; only the
  // second, forced, commit is then a safe one, so the translog is trimmed and a replica copies files instead of
  // replaying every operation (measured: 82 s instead of a few for 90k documents).
  await client.indices.flush({ index, wait_if_ongoing: true });
  await client.indices.flush({ index, wait_if_ongoing: true, force: true });
  const seconds = (from: number, to: number) => Math.round(to - from) / 1000;
  logger.info(
    {
      index,
      refreshSeconds: seconds(started, refreshed),
      flushSeconds: seconds(refreshed, performance.now()),
    },
    'new index refreshed and flushed',
  );
  const { count } = await client.count({ index });
  const expected = report.published;
  if (count !== expected || indexed !== expected) {
    throw new Error(
      `index check failed: ${index} holds ${count} documents (${indexed} sent), expected ${expected} published records`,
    );
  }
}

export const DEFAULT_GREEN_TIMEOUT_MS = 300_000;

/**
 * Phase 4: the replicas the cluster can hold, copied before the swap: the index goes live green, so the loss of
 * any one node (with a replica) loses no document and answers no 503. A cluster that cannot get there within the
 * bound fails the run, and the alias stays where it was.
 */
async function goLivePhase(client: Client, index: string, options: ReindexOptions): Promise<void> {
  const logger = options.logger ?? silentLogger;
  const started = performance.now();
  let replicas = options.replicas;
  if (replicas === undefined) {
    const { number_of_data_nodes: dataNodes } = await client.cluster.health({ index });
    replicas = replicasFor(dataNodes);
  }
  if (replicas > 0) {
    await client.indices.putSettings({ index, settings: { index: { number_of_replicas: replicas } } });
  }
  const timeoutMs = options.greenTimeoutMs ?? DEFAULT_GREEN_TIMEOUT_MS;
  const health = await client.cluster.health(
    { index, wait_for_status: 'green', timeout: `${Math.ceil(timeoutMs / 1000)}s` },
    // Elasticsearch answers 408 with timed_out when the bound passes: reported below, not thrown as a response error.
    { requestTimeout: timeoutMs + 30_000, ignore: [408] },
  );
  if (health.timed_out || health.status !== 'green') {
    throw new Error(
      `index check failed: ${index} did not turn green within ${Math.ceil(timeoutMs / 1000)}s with ` +
        `${replicas} replica(s) (status ${health.status}, ${health.unassigned_shards} unassigned and ` +
        `${health.initializing_shards} initializing shard(s), ${health.number_of_data_nodes} data node(s))`,
    );
  }
  logger.info(
    { index, replicas, seconds: Math.round(performance.now() - started) / 1000 },
    'new index replicated and green',
  );
}

/**
 * Phase 5, as the change log's one writer: what the new generation changes for clients (by slug and content
 * hash), checked against --max-removed, logged, then the alias swapped and the events published. The first
 * generation of an alias has nothing to compare with: the log starts (empty) with it.
 */
async function swapPhase(
  client: Client,
  alias: string,
  previousIndex: string | null,
  newIndex: string,
  incoming: IncomingSide,
  unpublished: ReadonlySet<string>,
  lock: AliasLock,
  options: ReindexOptions,
  onSwapped: () => void,
): Promise<ReindexSummary['changes']> {
  const changeLog = new ChangeLog(client, alias, {
    ...options.changeLog,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const swap = async (): Promise<void> => {
    throwIfAborted(options.signal);
    await lock.extend(); // proves we still hold the lock right before going live
    await swapAlias(client, alias, previousIndex, newIndex);
    onSwapped();
  };
  if (previousIndex === null) {
    await changeLog.ensure();
    await swap();
    return null;
  }
  return changeLog.write(async (session) => {
    const started = performance.now();
    const diff =
      incoming instanceof BuiltEntries
        ? await compareWithBuilt(client, previousIndex, incoming, unpublished)
        : await compareGenerations(client, previousIndex, incoming.index, unpublished, incoming.bounds);
    checkRemovals(
      'reindex',
      diff.removed,
      diff.before,
      options.maxRemoved ?? parseRemovalLimit(DEFAULT_MAX_REMOVED),
    );
    const compared = performance.now();
    await appendGenerationChange(client, session, diff, { from: previousIndex, to: newIndex });
    await swap();
    session.markHappened();
    await session.publish();
    const { added, updated, removed, unchanged } = diff;
    (options.logger ?? silentLogger).info(
      {
        added,
        updated,
        removed,
        unchanged,
        compareSeconds: Math.round(compared - started) / 1000,
        logSeconds: Math.round(performance.now() - compared) / 1000,
      },
      'changes against the live generation logged',
    );
    return { added, updated, removed, unchanged };
  });
}

async function deleteQuietly(client: Client, index: string, logger: IndexerLogger): Promise<void> {
  try {
    await client.indices.delete({ index, ignore_unavailable: true });
    logger.warn({ index }, 'deleted the half-built index');
  } catch (error) {
    logger.error({ err: error, index }, 'could not delete the half-built index; delete it by hand');
  }
}
