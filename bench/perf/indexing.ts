// Indexing throughput: the real indexer (reindex: validate the source, build documents, bulk, refresh, check the
// count, swap the alias) against a plain `_bulk` load of the same documents with the same batch size into a
// fresh index with the same mapping and settings. The raw side's bulk bodies are prepared before its clock
// starts (a file of ready NDJSON batches), so it measures what Elasticsearch can ingest; the ratio is what the
// indexer's own work (reading, validating, building, serialising) leaves of it.
import type { Client } from '@elastic/elasticsearch';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { buildDocument } from '../../indexer/elasticsearch/buildDocument.js';
import { indexDefinition, LIVE_SETTINGS } from '../../indexer/elasticsearch/indexMapping.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { readSource } from '../../indexer/sources/source.js';
import { esRequest, type EsTarget } from './elasticsearch.js';

/** bulkLoad's defaults (indexer/bulkLoad.ts): batches of 1000 documents, two requests in flight. */
export const BATCH_SIZE = 1000;
export const BULK_CONCURRENCY = 2;

export interface IndexingTiming {
  docs: number;
  seconds: number;
  docsPerSecond: number;
}

export interface ReindexTiming extends IndexingTiming {
  index: string;
  /** The bench process's peak RSS after the reindex (it ran in this process). */
  maxRssMb: number;
  /** Where the wall time went, from reindex's progress events (seconds). */
  phases: {
    /** Pass 1: reading and validating the whole source. */
    validate: number;
    /** Lock, index creation: up to the first bulk answer. */
    prepare: number;
    /** Pass 2: building and bulk-loading the documents. */
    load: number;
    /** Live settings, refresh, count check, alias swap, retention, lock release. */
    finish: number;
  };
}

export async function timeReindex(client: Client, alias: string, source: string): Promise<ReindexTiming> {
  const started = performance.now();
  let validated = started;
  let firstBatch: number | undefined;
  let lastBatch: number | undefined;
  let firstBatchDocs = 0;
  const summary = await reindex({
    client,
    alias,
    source,
    batchSize: BATCH_SIZE,
    onProgress: (event) => {
      const now = performance.now();
      if (event.phase === 'validate') validated = now;
      else {
        if (firstBatch === undefined) {
          firstBatch = now;
          firstBatchDocs = event.indexed;
        }
        lastBatch = now;
      }
    },
  });
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  if (!summary.index) throw new Error('reindex built no index');
  // The first answer also carries its batch's load time: credit it to "load" pro rata.
  const loadStart =
    firstBatch === undefined || lastBatch === undefined || lastBatch === firstBatch
      ? (firstBatch ?? validated)
      : firstBatch -
        ((lastBatch - firstBatch) / Math.max(1, summary.indexed - firstBatchDocs)) * firstBatchDocs;
  const loadEnd = lastBatch ?? loadStart;
  return {
    index: summary.index,
    docs: summary.indexed,
    seconds,
    docsPerSecond: summary.indexed / seconds,
    maxRssMb: summary.maxRssMb,
    phases: {
      validate: (validated - started) / 1000,
      prepare: Math.max(0, loadStart - validated) / 1000,
      load: (loadEnd - Math.max(loadStart, validated)) / 1000,
      finish: (ended - loadEnd) / 1000,
    },
  };
}

interface PreparedBulk {
  path: string;
  /** Byte ranges of the batches in the file. */
  batches: { offset: number; length: number }[];
  docs: number;
}

/** Writes the bulk bodies (published records only, `create` with the slug as id, as the indexer does). */
async function prepareBulk(source: string, index: string, bulkPath: string): Promise<PreparedBulk> {
  const output = createWriteStream(bulkPath);
  const batches: PreparedBulk['batches'] = [];
  let lines: string[] = [];
  let inBatch = 0;
  let offset = 0;
  let docs = 0;
  const flush = async (): Promise<void> => {
    if (inBatch === 0) return;
    const text = lines.join('');
    const length = Buffer.byteLength(text);
    batches.push({ offset, length });
    offset += length;
    lines = [];
    inBatch = 0;
    if (!output.write(text)) await once(output, 'drain');
  };
  for await (const item of readSource(source, 'ndjson')) {
    if ('unparsed' in item)
      throw new Error(`line ${item.line} of ${source}: ${JSON.stringify(item.problems)}`);
    const record = item.value as PpaRecord;
    if (!record.published) continue;
    lines.push(`${JSON.stringify({ create: { _index: index, _id: record.slug } })}\n`);
    lines.push(`${JSON.stringify(buildDocument(record))}\n`);
    inBatch++;
    docs++;
    if (inBatch >= BATCH_SIZE) await flush();
  }
  await flush();
  output.end();
  await finished(output);
  return { path: bulkPath, batches, docs };
}

/**
 * Times a plain `_bulk` load: create the index (same mapping and loading settings as the indexer), send the
 * prepared batches BULK_CONCURRENCY at a time, restore the live settings and refresh. The index is left for
 * the caller to delete.
 */
export async function timeRawBulk(
  target: EsTarget,
  source: string,
  index: string,
  bulkPath: string,
): Promise<IndexingTiming> {
  const prepared = await prepareBulk(source, index, bulkPath);
  const file = await open(prepared.path, 'r');
  try {
    const definition = indexDefinition({ built_at: new Date().toISOString(), records: prepared.docs });
    const started = performance.now();
    await esRequest(target, 'PUT', `/${index}`, JSON.stringify(definition));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < prepared.batches.length) {
        const { offset, length } = prepared.batches[next++]!;
        const body = Buffer.alloc(length);
        await file.read(body, 0, length, offset);
        const response = await esRequest<{ errors: boolean; items: unknown[] }>(
          target,
          'POST',
          '/_bulk',
          body,
          'application/x-ndjson',
        );
        if (response.errors) throw new Error(`raw _bulk into ${index} reported item errors`);
      }
    };
    await Promise.all(Array.from({ length: BULK_CONCURRENCY }, worker));
    await esRequest(target, 'PUT', `/${index}/_settings`, JSON.stringify({ index: LIVE_SETTINGS }));
    await esRequest(target, 'POST', `/${index}/_refresh`);
    const seconds = (performance.now() - started) / 1000;
    const { count } = await esRequest<{ count: number }>(target, 'GET', `/${index}/_count`);
    if (count !== prepared.docs)
      throw new Error(`raw _bulk: ${index} holds ${count} of ${prepared.docs} documents`);
    return { docs: prepared.docs, seconds, docsPerSecond: prepared.docs / seconds };
  } finally {
    await file.close();
  }
}
