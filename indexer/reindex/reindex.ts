// reindex: validate the whole source (a file or a PostgreSQL snapshot, indexer/sources/recordSource.ts), build a
// fresh `<alias>-<timestamp>` index, check it (checkIndex.ts), catch up with PostgreSQL (indexer/sync/catchUp.ts),
// swap the alias in one call (swap.ts), prune old indices. Any failure or interruption removes the new index; the
// alias stays put. The phases share one context (reindexRun.ts).
import type { Client } from '@elastic/elasticsearch';
import type { IndexDocument } from '../../indexContract/document.js';
import { peerLookup, type PeerLookup } from '../../indexContract/flags.js';
import { indexNameFor } from '../../indexContract/indexName.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { BuiltEntries } from '../changes/builtEntries.js';
import { aliasTarget, applyRetention } from '../elasticsearch/aliases.js';
import { bulkLoad, type LoadableDocument } from '../elasticsearch/bulkLoad.js';
import { buildDocument } from '../elasticsearch/buildDocument.js';
import { buildParties } from '../elasticsearch/partiesIndex.js';
import { partiesIndexOf } from '../../indexContract/parties.js';
import { indexDefinition } from '../elasticsearch/indexMapping.js';
import { AliasLock } from '../elasticsearch/lock.js';
import {
  EmptySourceError,
  InterruptedError,
  SourceChangedError,
  throwIfAborted,
  UsageError,
} from '../errors.js';
import type { IndexerLogger } from '../indexerLog.js';
import { openRecordSource } from '../sources/openSource.js';
import type { RecordSource } from '../sources/recordSource.js';
import { InvalidSourceError, type SourceReport } from '../sources/validateSource.js';
import { catchUp } from '../sync/catchUp.js';
import { goLivePhase, verifyPhase } from './checkIndex.js';
import {
  silentLogger,
  type GenerationBuild,
  type ReindexOptions,
  type ReindexRun,
  type ReindexSummary,
} from './reindexRun.js';
import { swapPhase, type IncomingSide } from './swap.js';

export type { ProgressEvent, ReindexOptions, ReindexSummary } from './reindexRun.js';

/**
 * Pass 2: the documents of the valid, published records, in source order, flagged with `peers` (by default the
 * fences pass 1 computed over the set indexed). `unpublished` collects the slugs of the valid unpublished ones (the
 * change log tells "unpublished" from "deleted").
 */
export async function* publishedDocuments(
  source: RecordSource,
  report: SourceReport,
  options: Pick<ReindexOptions, 'signal' | 'transformDocument'>,
  unpublished?: Set<string>,
  peers: PeerLookup = peerLookup(report.peerRates.fences(new Date().toISOString())),
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
    const document = buildDocument(record, peers);
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
    const run: ReindexRun = {
      options,
      client: options.client,
      alias: options.alias,
      logger: options.logger ?? silentLogger,
      signal,
      source,
      report,
    };
    const generation = await buildGeneration(run, keep);
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
async function buildGeneration(run: ReindexRun, keep: number): Promise<Generation> {
  const { client, alias, signal, logger, options } = run;
  throwIfAborted(signal);
  const lock = await AliasLock.acquire(client, alias, {
    guards: 'generations',
    ...(options.lockTtlMs ? { ttlMs: options.lockTtlMs } : {}),
  });
  let newIndex: string | null = null;
  let swapped = false;
  try {
    const previousIndex = await aliasTarget(client, alias);
    const builtAt = new Date();
    newIndex = indexNameFor(alias, builtAt);
    const build: GenerationBuild = {
      ...run,
      lock,
      index: newIndex,
      builtAt,
      previousIndex,
      unpublished: new Set<string>(),
      // What is written, noted for the comparison with the generation it replaces (changes/builtEntries.ts).
      // Catch-up (PostgreSQL) changes the new index after the build: then the index is read as it ends up, cut
      // where the noted slugs say, and only those cuts are kept.
      built: previousIndex !== null ? new BuiltEntries() : undefined,
    };
    const indexed = await loadPhase(build);
    const { built, source } = build;
    const incoming: IncomingSide =
      built && !source.catchUpFrom ? built : { index: newIndex, bounds: built?.bounds() ?? [] };
    throwIfAborted(signal);
    await verifyPhase(build, indexed);
    throwIfAborted(signal);
    const changedSince = source.catchUpFrom?.();
    if (changedSince) await catchUp(client, newIndex, changedSince, logger);
    throwIfAborted(signal);
    // The parties from the PPAs as they go live (after the catch-up), so both are one generation.
    const parties = await buildParties(client, alias, newIndex);
    logger.info({ index: newIndex, parties }, 'parties built');
    throwIfAborted(signal);
    await goLivePhase(build);

    throwIfAborted(signal);
    const changes = await swapPhase(build, incoming, () => {
      swapped = true;
    });
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
    if (newIndex && !swapped) {
      await deleteQuietly(client, newIndex, logger);
      await deleteQuietly(client, partiesIndexOf(alias, newIndex), logger);
    }
    if (signal?.aborted && !(error instanceof InterruptedError))
      throw new InterruptedError(String(signal.reason));
    throw error;
  } finally {
    await lock.release().catch((error: unknown) => logger.warn({ err: error }, 'could not release the lock'));
  }
}

/** Phase 2: create the index with loading settings and bulk the published documents into it. */
async function loadPhase(build: GenerationBuild): Promise<number> {
  const { client, signal, source, report, index, builtAt, lock, options, unpublished, built } = build;
  // The red flags' fences, over the set this reindex indexes: stored with the index, so sync and the API read them.
  const fences = report.peerRates.fences(builtAt.toISOString());
  await client.indices.create({
    index,
    ...indexDefinition({
      built_at: builtAt.toISOString(),
      records: report.published,
      flag_fences: fences,
      ...source.meta(),
    }),
  });
  build.logger.info({ index }, 'loading new index');
  const documents = publishedDocuments(source, report, options, unpublished, peerLookup(fences));
  return bulkLoad(client, index, built ? noted(documents, built) : documents, {
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    ...(signal ? { signal } : {}),
    checkpoint: () => lock.assertHeld(),
    onBatch: (done) => options.onProgress?.({ phase: 'load', indexed: done, total: report.published }),
  });
}

async function* noted<T extends { document: IndexDocument }>(
  documents: AsyncIterable<T>,
  built: BuiltEntries,
): AsyncGenerator<T> {
  for await (const item of documents) {
    built.add(item.document.slug, item.document.content_hash);
    yield item;
  }
}

async function deleteQuietly(client: Client, index: string, logger: IndexerLogger): Promise<void> {
  try {
    await client.indices.delete({ index, ignore_unavailable: true });
    logger.warn({ index }, 'deleted the half-built index');
  } catch (error) {
    logger.error({ err: error, index }, 'could not delete the half-built index; delete it by hand');
  }
}
