// What a reindex reads: a file (NDJSON or JSON array, `-` spooled from stdin) or a PostgreSQL relation. Both are
// read twice (validation, then load) and must prove before the swap that the second pass read what the first
// validated, so the phases of indexer/reindex.ts do not care which one they read.
import type { Client } from '@elastic/elasticsearch';
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { SourceChangedError } from './errors.js';
import type { IndexMeta } from './indexMapping.js';
import type { IndexerLogger } from './reindex.js';
import { detectFormat, readSource, type SourceFormat, type SourceItem } from './source.js';
import { fileSourceError, statSourceFile } from './sourceErrors.js';
import { spoolToTempFile, type SpooledFile } from './spool.js';

export interface RecordSource {
  readonly format: SourceFormat;
  /** The size of one pass for progress: bytes of a file, rows of a relation. */
  readonly total: number;
  /** One pass over every record, in the same order on every pass. */
  items(options: { signal?: AbortSignal; onAmount?: (done: number) => void }): AsyncIterable<SourceItem>;
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

class FileSource implements RecordSource {
  private constructor(
    private readonly path: string,
    readonly format: SourceFormat,
    private readonly atStart: Stats,
    private readonly spooled: SpooledFile | undefined,
  ) {}

  get total(): number {
    return this.atStart.size;
  }

  static async open(source: string | Readable, signal?: AbortSignal): Promise<FileSource> {
    let spooled: SpooledFile | undefined;
    if (typeof source !== 'string' || source === '-') {
      spooled = await spoolToTempFile(typeof source === 'string' ? process.stdin : source, signal);
    }
    const path = spooled?.path ?? (source as string);
    try {
      // A missing, unreadable or directory source fails here, with its path, before anything else is read.
      const atStart = await statSourceFile(path);
      return new FileSource(path, await detectFormat(path), atStart, spooled);
    } catch (error) {
      await spooled?.remove();
      throw fileSourceError(path, error);
    }
  }

  items(options: { signal?: AbortSignal; onAmount?: (done: number) => void }): AsyncIterable<SourceItem> {
    return readSource(this.path, this.format, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onAmount ? { onBytes: options.onAmount } : {}),
    });
  }

  /** Same size, modification time and inode as when the run began, so pass 2 read what pass 1 validated. */
  async assertUnchanged(): Promise<void> {
    const now = await stat(this.path);
    const { atStart } = this;
    if (now.size !== atStart.size || now.mtimeMs !== atStart.mtimeMs || now.ino !== atStart.ino)
      throw new SourceChangedError(this.path);
  }

  meta(): Partial<IndexMeta> {
    return {};
  }

  async close(): Promise<void> {
    await this.spooled?.remove();
  }
}

/** A source name that is a PostgreSQL connection URL. */
export function isPostgresUrl(source: unknown): source is string {
  return typeof source === 'string' && /^postgres(ql)?:\/\//i.test(source);
}

export interface OpenSourceOptions {
  /** PostgreSQL: the relation to read (default ppa_index_records). */
  relation?: string;
  /** PostgreSQL: the catch-up's overlap window (sync's --overlap). */
  overlapSeconds?: number;
  signal?: AbortSignal;
}

export async function openRecordSource(
  source: string | Readable,
  options: OpenSourceOptions = {},
): Promise<RecordSource> {
  if (isPostgresUrl(source)) {
    // Loaded only when asked for, so file runs never load the PostgreSQL driver.
    const { PostgresSource } = await import('./postgresSource.js');
    return PostgresSource.open(source, options.relation, options.overlapSeconds);
  }
  return FileSource.open(source, options.signal);
}
