// A file source: NDJSON or a JSON array, or `-` (standard input, spooled to a temporary file so it can be read
// twice). Pass 2 proves it read what pass 1 validated by the file's size, modification time and inode.
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { SourceChangedError } from '../errors.js';
import type { IndexMeta } from '../elasticsearch/indexMapping.js';
import { validateNdjsonFile, validationReaders } from './parallelValidation.js';
import type { RecordSource, ValidateOptions } from './recordSource.js';
import { detectFormat, readSource, type SourceFormat, type SourceItem } from './source.js';
import { fileSourceError, statSourceFile } from './sourceErrors.js';
import { spoolToTempFile, type SpooledFile } from './spool.js';
import { validateItems, type SourceReport } from './validateSource.js';

export class FileSource implements RecordSource {
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

  /** A large NDJSON file is checked in byte ranges on every processor (parallelValidation.ts). */
  validate(options: ValidateOptions): Promise<SourceReport> {
    const { size } = this.atStart;
    const readers = this.format === 'ndjson' ? validationReaders(size, availableParallelism()) : 1;
    if (readers === 1) return validateItems(this.items(options), this.format, options);
    return validateNdjsonFile(this.path, size, readers, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onAmount ? { onBytes: options.onAmount } : {}),
      ...(options.onRecord ? { onRecord: options.onRecord } : {}),
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
