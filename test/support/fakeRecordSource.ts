// A record source in memory (indexer/sources/recordSource.ts's RecordSource) for the indexer's unit tests: the
// values given, read in the same order on every pass (NDJSON lines numbered from 1), validated as a file's are
// (validateSource.ts's validateItems), and told to report a change between passes (`changeBetweenPasses`).
import { SourceChangedError } from '../../indexer/errors.js';
import type { IndexMeta } from '../../indexer/elasticsearch/indexMapping.js';
import type { RecordSource, ValidateOptions } from '../../indexer/sources/recordSource.js';
import type { SourceItem } from '../../indexer/sources/source.js';
import { validateItems, type SourceReport } from '../../indexer/sources/validateSource.js';

export class FakeRecordSource implements RecordSource {
  readonly format = 'ndjson' as const;
  /** Set: assertUnchanged says the last pass read something else than the first. */
  changeBetweenPasses = false;

  constructor(
    private readonly values: readonly unknown[],
    private readonly written: Partial<IndexMeta> = {},
  ) {}

  get total(): number {
    return this.values.length;
  }

  async *items(options: {
    signal?: AbortSignal;
    onAmount?: (done: number) => void;
  }): AsyncIterable<SourceItem> {
    let line = 0;
    for (const value of this.values) {
      options.signal?.throwIfAborted();
      line++;
      yield { line, value: structuredClone(value) };
      options.onAmount?.(line);
    }
  }

  validate(options: ValidateOptions): Promise<SourceReport> {
    return validateItems(this.items(options), this.format, options);
  }

  async assertUnchanged(): Promise<void> {
    if (this.changeBetweenPasses) throw new SourceChangedError('the fake source');
  }

  meta(): Partial<IndexMeta> {
    return this.written;
  }

  async close(): Promise<void> {}
}
