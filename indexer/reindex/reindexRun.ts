// One reindex run as its phases see it (reindex.ts runs them, checkIndex.ts and swap.ts hold the later ones):
// what was asked (ReindexOptions), what it reports (ReindexSummary), and the context each phase is handed instead
// of a list of positional parameters.
import type { Client } from '@elastic/elasticsearch';
import type { Readable } from 'node:stream';
import type { IndexDocument } from '../../indexContract/document.js';
import type { BuiltEntries } from '../changes/builtEntries.js';
import type { ChangeLogOptions } from '../changes/changeLog.js';
import type { GenerationDiff } from '../changes/generationDiff.js';
import type { RemovalLimit } from '../changes/removalGuard.js';
import type { AliasLock } from '../elasticsearch/lock.js';
import type { IndexerLogger } from '../indexerLog.js';
import type { RecordSource } from '../sources/recordSource.js';
import type { SourceFormat } from '../sources/source.js';
import type { InvalidRecord, SourceReport } from '../sources/validateSource.js';

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

/** One run, once its source is validated: what every phase reads. */
export interface ReindexRun {
  options: ReindexOptions;
  client: Client;
  alias: string;
  logger: IndexerLogger;
  signal: AbortSignal | undefined;
  source: RecordSource;
  report: SourceReport;
}

/** A new generation being built under the alias's lock: the run, and what the phases after the load share. */
export interface GenerationBuild extends ReindexRun {
  lock: AliasLock;
  /** The new index (`<alias>-<timestamp>`). */
  index: string;
  builtAt: Date;
  /** The live index it replaces (null: the alias's first generation). */
  previousIndex: string | null;
  /** Slugs of the valid unpublished records: the change log tells "unpublished" from "deleted". */
  unpublished: Set<string>;
  /** What the load wrote, noted for the comparison; undefined for a first generation (nothing to compare). */
  built: BuiltEntries | undefined;
}

export const silentLogger: IndexerLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as never;
