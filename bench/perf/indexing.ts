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
import type { IndexerLogger } from '../../indexer/indexerLog.js';
import { readSource } from '../../indexer/sources/source.js';
import { esRequest, type EsTarget } from './rawElasticsearch.js';

/** bulkLoad's defaults (indexer/elasticsearch/bulkLoad.ts): batches of 1000 documents, two requests in flight. */
export const BATCH_SIZE = 1000;
export const BULK_CONCURRENCY = 2;

export interface IndexingTiming {
  docs: number;
  seconds: number;
  docsPerSecond: number;
  /** What Elasticsearch spent meanwhile (its node stats before and after), when it could be read. */
  es?: EsLoadWork;
}

/**
 * Elasticsearch's work during a load, in seconds, from its node stats (which keep the counts of deleted indices):
 * time indexing documents, merging segments (and throttled while merging), refreshing, and collecting garbage.
 * Where a run's time swings, these say which of them moved.
 */
export interface EsLoadWork {
  /** The Elasticsearch process's CPU (all its threads). */
  cpu: number;
  indexing: number;
  merges: number;
  mergesThrottled: number;
  refresh: number;
  gcYoung: number;
  gcOld: number;
}

interface NodeStats {
  nodes?: Record<
    string,
    {
      indices?: {
        indexing?: { index_time_in_millis?: number };
        merges?: { total_time_in_millis?: number; total_throttled_time_in_millis?: number };
        refresh?: { total_time_in_millis?: number };
      };
      jvm?: { gc?: { collectors?: Record<string, { collection_time_in_millis?: number }> } };
      process?: { cpu?: { total_in_millis?: number } };
    }
  >;
}

/** The local node's counters behind EsLoadWork (seconds, since it started); undefined when unreadable. */
export async function esLoadCounters(target: EsTarget): Promise<EsLoadWork | undefined> {
  try {
    const stats = await esRequest<NodeStats>(target, 'GET', '/_nodes/_local/stats/jvm,indices,process');
    const node = Object.values(stats.nodes ?? {})[0];
    if (!node) return undefined;
    const seconds = (millis: number | undefined) => (millis ?? 0) / 1000;
    return {
      cpu: seconds(node.process?.cpu?.total_in_millis),
      indexing: seconds(node.indices?.indexing?.index_time_in_millis),
      merges: seconds(node.indices?.merges?.total_time_in_millis),
      mergesThrottled: seconds(node.indices?.merges?.total_throttled_time_in_millis),
      refresh: seconds(node.indices?.refresh?.total_time_in_millis),
      gcYoung: seconds(node.jvm?.gc?.collectors?.young?.collection_time_in_millis),
      gcOld: seconds(node.jvm?.gc?.collectors?.old?.collection_time_in_millis),
    };
  } catch {
    return undefined;
  }
}

/** after − before, field by field. */
export function esLoadWork(
  before: EsLoadWork | undefined,
  after: EsLoadWork | undefined,
): EsLoadWork | undefined {
  if (!before || !after) return undefined;
  const keys = Object.keys(before) as (keyof EsLoadWork)[];
  return Object.fromEntries(keys.map((key) => [key, after[key] - before[key]])) as unknown as EsLoadWork;
}

export interface ReindexTiming extends IndexingTiming {
  index: string;
  /** The bench process's peak RSS after the reindex (it ran in this process). */
  maxRssMb: number;
  /** CPU seconds (user + system) the reindex took in this process: the cores it took from Elasticsearch. */
  cpuSeconds: number;
  /** Where the wall time went, from reindex's progress events (seconds). */
  phases: {
    /** Pass 1: reading and validating the whole source. */
    validate: number;
    /** Lock, index creation: up to the first bulk answer. */
    prepare: number;
    /** Pass 2: building and bulk-loading the documents. */
    load: number;
    /**
     * Live settings, refresh, count check, the comparison with the live generation and its change-log event, alias
     * swap, retention, lock release.
     */
    finish: number;
    /**
     * Of `finish`: comparing with the generation it replaces, logging the change and swapping (the indexer's
     * `compareSeconds` + `logSeconds`; 0 when there was nothing to compare;
     * absent from results files made before it was measured).
     */
    compare?: number;
  };
}

export async function timeReindex(
  client: Client,
  alias: string,
  source: string,
  target?: EsTarget,
): Promise<ReindexTiming> {
  const counters = target ? await esLoadCounters(target) : undefined;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let validated = started;
  let firstBatch: number | undefined;
  let lastBatch: number | undefined;
  let firstBatchDocs = 0;
  let compareSeconds = 0;
  const summary = await reindex({
    client,
    alias,
    source,
    batchSize: BATCH_SIZE,
    logger: changesLogged((seconds) => (compareSeconds = seconds)),
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
  const cpu = process.cpuUsage(cpuBefore);
  const seconds = (ended - started) / 1000;
  if (!summary.index) throw new Error('reindex built no index');
  // The first answer also carries its batch's load time: credit it to "load" pro rata.
  const loadStart =
    firstBatch === undefined || lastBatch === undefined || lastBatch === firstBatch
      ? (firstBatch ?? validated)
      : firstBatch -
        ((lastBatch - firstBatch) / Math.max(1, summary.indexed - firstBatchDocs)) * firstBatchDocs;
  const loadEnd = lastBatch ?? loadStart;
  const es = target ? esLoadWork(counters, await esLoadCounters(target)) : undefined;
  return {
    index: summary.index,
    ...(es ? { es } : {}),
    docs: summary.indexed,
    seconds,
    docsPerSecond: summary.indexed / seconds,
    maxRssMb: summary.maxRssMb,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    phases: {
      validate: (validated - started) / 1000,
      prepare: Math.max(0, loadStart - validated) / 1000,
      load: (loadEnd - Math.max(loadStart, validated)) / 1000,
      finish: (ended - loadEnd) / 1000,
      compare: compareSeconds,
    },
  };
}

/**
 * A silent indexer logger that hears only the swap phase's entry on the change log (reindex.ts): how long the
 * comparison with the replaced generation took, and the event's write, the alias swap and the publishing after it.
 */
function changesLogged(onCompared: (seconds: number) => void): IndexerLogger {
  const quiet = () => undefined;
  const info = (fields: unknown) => {
    const { compareSeconds, logSeconds } = (fields ?? {}) as { compareSeconds?: number; logSeconds?: number };
    if (typeof compareSeconds === 'number') onCompared(compareSeconds + (logSeconds ?? 0));
  };
  return { info, warn: quiet, error: quiet } as unknown as IndexerLogger;
}

interface PreparedBulk {
  path: string;
  /** Byte ranges of the batches in the file. */
  batches: { offset: number; length: number }[];
  docs: number;
}

/**
 * What goes into the index for one record: the indexer's document (the default), a document with some field
 * families left out, or the record itself (the plain mapping's load).
 */
type DocumentOf = (record: PpaRecord) => object;

/** Writes the bulk bodies (published records only, `create` with the slug as id, as the indexer does). */
async function prepareBulk(
  source: string,
  index: string,
  bulkPath: string,
  documentOf: DocumentOf = buildDocument,
): Promise<PreparedBulk> {
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
    lines.push(`${JSON.stringify(documentOf(record))}\n`);
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
  variant: BulkVariant = OWN_MAPPING,
): Promise<IndexingTiming> {
  const prepared = await prepareBulk(source, index, bulkPath, variant.documentOf);
  const file = await open(prepared.path, 'r');
  try {
    const definition = variant.definition(
      indexDefinition({ built_at: new Date().toISOString(), records: prepared.docs }),
    );
    const counters = await esLoadCounters(target);
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
    const es = esLoadWork(counters, await esLoadCounters(target));
    return { docs: prepared.docs, seconds, docsPerSecond: prepared.docs / seconds, ...(es ? { es } : {}) };
  } finally {
    await file.close();
  }
}

type Definition = ReturnType<typeof indexDefinition>;

/** What a plain `_bulk` load puts into which index definition. */
export interface BulkVariant {
  name: string;
  documentOf: DocumentOf;
  definition: (own: Definition) => object;
}

/** The indexer's documents into the indexer's mapping: the pipeline's floor. */
export const OWN_MAPPING: BulkVariant = { name: 'own', documentOf: buildDocument, definition: (own) => own };

/**
 * The published records as they are into Elasticsearch's dynamic mapping (every string a text field with a
 * keyword sub-field, numbers and dates detected), with the same loading settings: a plain multi-field mapping.
 */
export const PLAIN_MAPPING: BulkVariant = {
  name: 'plain',
  documentOf: (record) => record,
  definition: (own) => ({ settings: { index: (own.settings as { index: object }).index } }),
};

/**
 * The field families the indexer adds for search quality, each a set of document fields (and what of the
 * name_folded field they stand for); the mapping cost of one is the load time with it minus without it.
 */
export const FIELD_FAMILIES: { family: string; fields: string[]; namePrefixes?: boolean }[] = [
  { family: 'name_folded index_prefixes (typing prefixes)', fields: [], namePrefixes: true },
  { family: 'name_prefixes (suggestions)', fields: ['name_prefixes'] },
  { family: 'name_dropped_letter (dropped letter, two typos)', fields: ['name_dropped_letter'] },
  { family: 'name_without_first_letter (first-letter typos)', fields: ['name_without_first_letter'] },
  { family: 'name_joined (joined words)', fields: ['name_joined'] },
  { family: 'name_canonical + name_compact (canonical forms)', fields: ['name_canonical', 'name_compact'] },
  { family: 'country_names + technology_words (descriptors)', fields: ['country_names', 'technology_words'] },
  { family: 'facet_values (facet counts)', fields: ['facet_values'] },
];

/** The own mapping and documents without one family. */
export function withoutFamily(family: (typeof FIELD_FAMILIES)[number]): BulkVariant {
  return {
    name: `without ${family.family}`,
    documentOf: (record) => {
      const document: Record<string, unknown> = { ...buildDocument(record) };
      for (const field of family.fields) delete document[field];
      return document;
    },
    definition: (own) => {
      const properties: Record<string, Record<string, unknown>> = structuredClone(
        (own.mappings as { properties: Record<string, Record<string, unknown>> }).properties,
      );
      for (const field of family.fields) delete properties[field];
      if (family.namePrefixes && properties.name_folded) delete properties.name_folded.index_prefixes;
      return { settings: own.settings, mappings: { ...own.mappings, properties } };
    },
  };
}
