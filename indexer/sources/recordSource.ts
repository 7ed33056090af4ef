// What a reindex reads, as the phases of indexer/reindex/reindex.ts see it: a file (fileSource.ts) or a PostgreSQL
// relation (postgresSource.ts), both read twice (validation, then load), and both able to prove before the swap
// that the second pass read what the first validated. openSource.ts opens the one a --source names.
import type { Client } from '@elastic/elasticsearch';
import type { IndexMeta } from '../elasticsearch/indexMapping.js';
import type { IndexerLogger } from '../indexerLog.js';
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
   * PostgreSQL only: applies to the new, verified index what changed since the snapshot, just before the swap,
   * and moves its high-water mark on (a long reindex must not go live with what it read at the start).
   */
  catchUp?(client: Client, index: string, logger: IndexerLogger): Promise<void>;
  close(): Promise<void>;
}

export interface ValidateOptions {
  signal?: AbortSignal;
  /** Progress: what items() reports. */
  onAmount?: (done: number) => void;
  /** Records checked so far. */
  onRecord?: (read: number) => void;
}
