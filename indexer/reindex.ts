// reindex: validate the whole source, build a fresh `<alias>-<timestamp>` index, check its count, swap the
// alias in one call, prune old indices. Any failure or interruption removes the new index; the alias stays put.
import type { Client } from '@elastic/elasticsearch';
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { aliasTarget, applyRetention, swapAlias } from './aliases.js';
import { bulkLoad, type LoadableDocument } from './bulkLoad.js';
import { buildDocument, type IndexDocument } from './document.js';
import {
  EmptySourceError,
  InterruptedError,
  InvalidSourceError,
  SourceChangedError,
  UsageError,
} from './errors.js';
import { indexDefinition, LIVE_SETTINGS } from './indexMapping.js';
import { indexNameFor } from './indexName.js';
import { ReindexLock } from './lock.js';
import type { PpaRecord } from './record.js';
import { detectFormat, readSource, type SourceFormat } from './source.js';
import { spoolToTempFile, type SpooledFile } from './spool.js';
import { validateSource, type InvalidRecord, type SourceReport } from './validateSource.js';

export type IndexerLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export type ProgressEvent =
  | { phase: 'validate'; records: number; bytes: number; totalBytes: number }
  | { phase: 'load'; indexed: number; total: number };

export interface ReindexOptions {
  client: Client;
  alias: string;
  /** A file path (NDJSON or JSON array), `-` for stdin, or a readable stream. */
  source: string | Readable;
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
}

const silentLogger: IndexerLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as never;

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new InterruptedError(String(signal.reason));
}

async function openSource(
  source: string | Readable,
  signal?: AbortSignal,
): Promise<{ path: string; spooled?: SpooledFile }> {
  if (typeof source !== 'string' || source === '-') {
    const spooled = await spoolToTempFile(typeof source === 'string' ? process.stdin : source, signal);
    return { path: spooled.path, spooled };
  }
  return { path: source };
}

/** Pass 2: the documents of the valid, published records, in source order. */
async function* publishedDocuments(
  path: string,
  report: SourceReport,
  options: Pick<ReindexOptions, 'signal' | 'transformDocument'>,
): AsyncGenerator<LoadableDocument> {
  for await (const item of readSource(
    path,
    report.format,
    options.signal ? { signal: options.signal } : {},
  )) {
    if (report.invalidLines.has(item.line)) continue;
    // Pass 1 validated every record, and the file is checked for changes before the alias moves
    // (assertUnchanged), so validating again here would only double the CPU cost of a record.
    if ('parseError' in item) throw new SourceChangedError(path);
    const record = item.value as PpaRecord;
    if (!record.published) continue;
    const document = buildDocument(record);
    yield {
      id: record.slug,
      body: options.transformDocument ? options.transformDocument(document) : document,
    };
  }
}

export async function reindex(options: ReindexOptions): Promise<ReindexSummary> {
  const started = performance.now();
  const { client, alias, signal } = options;
  const logger = options.logger ?? silentLogger;
  const keep = options.keep ?? 2;
  if (!Number.isInteger(keep) || keep < 1)
    throw new UsageError(`--keep must be an integer >= 1, got ${keep}`);

  const { path, spooled } = await openSource(options.source, signal).catch((error: unknown) => {
    throwIfAborted(signal);
    throw error;
  });
  try {
    const sourceAtStart = await stat(path);
    const totalBytes = sourceAtStart.size;
    const format = await detectFormat(path);
    let bytes = 0;
    const report = await validateSource(path, format, {
      ...(signal ? { signal } : {}),
      onBytes: (read) => (bytes = read),
      onRecord: (records) => {
        if (records % 1000 === 0) options.onProgress?.({ phase: 'validate', records, bytes, totalBytes });
      },
    }).catch((error: unknown) => {
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
    if (report.invalid > 0) {
      logger.warn({ invalid: report.invalid }, 'skipping invalid records (--skip-invalid)');
    }
    if (report.published === 0) {
      throw new EmptySourceError(
        `the source has no valid published record (${report.read} read): refusing to make an empty index live`,
      );
    }

    const summary = (
      index: string | null,
      previousIndex: string | null,
      indexed: number,
      deletedIndices: string[],
    ) => {
      const seconds = (performance.now() - started) / 1000;
      return {
        alias,
        index,
        previousIndex,
        format,
        read: report.read,
        invalid: report.invalid,
        unpublished: report.unpublished,
        published: report.published,
        inactive: report.inactive,
        indexed,
        deletedIndices,
        seconds: Math.round(seconds * 100) / 100,
        docsPerSecond: Math.round(indexed / Math.max(seconds, 0.001)),
        maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        dryRun: Boolean(options.dryRun),
        invalidRecords: report.invalidRecords,
      } satisfies ReindexSummary;
    };

    if (options.dryRun) {
      let built = 0;
      for await (const _document of publishedDocuments(path, report, options)) built++;
      return summary(null, null, built, []); // a dry run never talks to Elasticsearch
    }

    throwIfAborted(signal);
    const lock = await ReindexLock.acquire(
      client,
      alias,
      options.lockTtlMs ? { ttlMs: options.lockTtlMs } : {},
    );
    let newIndex: string | null = null;
    let swapped = false;
    try {
      const previousIndex = await aliasTarget(client, alias);
      const builtAt = new Date();
      newIndex = indexNameFor(alias, builtAt);
      await client.indices.create({
        index: newIndex,
        ...indexDefinition({ built_at: builtAt.toISOString(), records: report.published }),
      });
      logger.info({ index: newIndex, previousIndex }, 'loading new index');

      const indexed = await bulkLoad(client, newIndex, publishedDocuments(path, report, options), {
        ...(options.batchSize ? { batchSize: options.batchSize } : {}),
        ...(signal ? { signal } : {}),
        checkpoint: () => lock.assertHeld(),
        onBatch: (done) => options.onProgress?.({ phase: 'load', indexed: done, total: report.published }),
      });

      throwIfAborted(signal);
      await assertUnchanged(path, sourceAtStart);
      await client.indices.putSettings({ index: newIndex, settings: { index: LIVE_SETTINGS } });
      await client.indices.refresh({ index: newIndex });
      const { count } = await client.count({ index: newIndex });
      if (count !== report.published || indexed !== report.published) {
        throw new Error(
          `index check failed: ${newIndex} holds ${count} documents (${indexed} sent), expected ${report.published} published records`,
        );
      }

      throwIfAborted(signal);
      await lock.extend(); // proves we still hold the lock right before going live
      await swapAlias(client, alias, previousIndex, newIndex);
      swapped = true;
      logger.info({ alias, index: newIndex, previousIndex }, 'alias swapped');

      const deletedIndices = await applyRetention(client, alias, keep, newIndex, previousIndex).catch(
        (error: unknown) => {
          // The new index is live and correct; failing to prune old ones is worth a warning, not a failed run.
          logger.warn({ err: error }, 'could not delete old indices');
          return [];
        },
      );
      return summary(newIndex, previousIndex, indexed, deletedIndices);
    } catch (error) {
      if (newIndex && !swapped) await deleteQuietly(client, newIndex, logger);
      if (signal?.aborted && !(error instanceof InterruptedError))
        throw new InterruptedError(String(signal.reason));
      throw error;
    } finally {
      await lock
        .release()
        .catch((error: unknown) => logger.warn({ err: error }, 'could not release the lock'));
    }
  } finally {
    await spooled?.remove();
  }
}

/** Same size, modification time and inode as when the run began, so pass 2 read what pass 1 validated. */
async function assertUnchanged(path: string, atStart: Stats): Promise<void> {
  const now = await stat(path);
  if (now.size !== atStart.size || now.mtimeMs !== atStart.mtimeMs || now.ino !== atStart.ino)
    throw new SourceChangedError(path);
}

async function deleteQuietly(client: Client, index: string, logger: IndexerLogger): Promise<void> {
  try {
    await client.indices.delete({ index, ignore_unavailable: true });
    logger.warn({ index }, 'deleted the half-built index');
  } catch (error) {
    logger.error({ err: error, index }, 'could not delete the half-built index; delete it by hand');
  }
}
