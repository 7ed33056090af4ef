// What a reindex reads, as the phases of indexer/reindex/reindex.ts see it: a file (fileSource.ts) or a PostgreSQL
// relation (postgresSource.ts), both read twice (validation, then load), and both able to prove before the swap
// that the second pass read what the first validated. openSource.ts opens the one a --source names.
import type { IndexMeta } from '../elasticsearch/indexMapping.js';
import type { SourceFormat, SourceItem } from './source.js';
import type { SourceReport } from './validateSource.js';

export interface RecordSource {
  readonly format: SourceFormat;
  /** The size of one pass for progress: bytes of a file, rows of a relation. */
  readonly total: number;
  /** One pass over every record, in the same order on every pass. */
  items(options: { signal?: AbortSignal; onAmount?: (done: number) => void }): AsyncIterable<SourceItem>;
  /** Pass 1: every record checked (validateSource.ts), in whatever way reads this source fastest. */
  validate(options: ValidateOptions): Promise<SourceReport>;
  /** Throws SourceChangedError when the last pass did not read what the first one did. */
  assertUnchanged(): Promise<void>;
  /** What the new index's _meta records about the source (PostgreSQL: the snapshot's high-water mark). */
  meta(): Partial<IndexMeta>;
  /**
   * PostgreSQL only: where to read what changed since the snapshot, so that the reindex applies it to the new,
   * verified index just before the swap and moves its high-water mark on (indexer/sync/catchUp.ts: a long reindex
   * must not go live with what it read at the start). Throws SourceChangedError when the first pass did not
   * read every row.
   */
  catchUpFrom?(): CatchUpSource;
  close(): Promise<void>;
}

/** A PostgreSQL source's relation, and the slugs its snapshot held, for the catch-up. */
export interface CatchUpSource {
  /** postgres:// URL. */
  url: string;
  relation: string;
  /** Sync's --overlap window (default: sync's). */
  overlapSeconds?: number;
  /** The snapshot's slugs in byte order, read anew each call. */
  snapshotSlugs(): AsyncIterable<string>;
}

export interface ValidateOptions {
  signal?: AbortSignal;
  /** Progress: what items() reports. */
  onAmount?: (done: number) => void;
  /** Records checked so far. */
  onRecord?: (read: number) => void;
}
