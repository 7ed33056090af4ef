// A PostgreSQL relation in memory, read as sync reads one (indexer/sources/postgresChanges.ts's ChangeSnapshot): rows
// of (slug, updated_at, record text), a clock that stamps each change and gives each snapshot its mark, and the
// three reads of a snapshot (what changed since a mark, less an overlap; the unpublished among them; which slugs are
// no longer rows). A snapshot reads the rows as they were when it began, as REPEATABLE READ does.
//
// Sync and a reindex's catch-up make their own PostgresChangeReader from a URL; serveChangesFrom() points every
// reader's snapshot at the fake for a test (restore() puts the real one back), readerOf() makes one such reader.
import {
  PostgresChangeReader,
  type ChangedRow,
  type ChangeSnapshot,
} from '../../indexer/sources/postgresChanges.js';
import { compareBytes, vanishedSlugs } from '../../indexer/slugOrder.js';

/** An instant as the relation's queries write it: ISO 8601 UTC with microseconds. */
export function microseconds(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '000Z');
}

export class FakeRelation {
  private rows = new Map<string, ChangedRow>();
  /** The relation's clock (ms): each put or remove moves it on 1 s. */
  now = Date.UTC(2026, 0, 1, 12);
  /** The reads of changed rows asked for, in order. */
  readonly reads: { from: string; overlapSeconds: number; batchSize: number }[] = [];
  /** Snapshots begun. */
  snapshots = 0;
  /** Set: the read of changed rows fails with it after this many batches. */
  failAfterBatches: { batches: number; error: Error } | null = null;

  /** Writes records (or a row's raw text for a slug) now; the clock moves on after each. */
  put(...records: ({ slug: string } | { slug: string; text: string })[]): this {
    for (const record of records) {
      this.now += 1000;
      const text = 'text' in record ? record.text : JSON.stringify(record);
      this.rows.set(record.slug, { slug: record.slug, updated_at: microseconds(this.now), record: text });
    }
    return this;
  }

  /** Deletes rows (a hard delete: nothing is left to read). */
  remove(...slugs: string[]): this {
    this.now += 1000;
    for (const slug of slugs) this.rows.delete(slug);
    return this;
  }

  /** The mark a snapshot taken now gets. */
  get mark(): string {
    return microseconds(this.now);
  }

  snapshot<T>(work: (snapshot: ChangeSnapshot) => Promise<T>): Promise<T> {
    this.snapshots++;
    return work(this.reading([...this.rows.values()], this.mark));
  }

  private reading(rows: readonly ChangedRow[], mark: string): ChangeSnapshot {
    const since = (from: string, overlapSeconds: number) =>
      rows
        .filter((row) => Date.parse(row.updated_at) > Date.parse(from) - overlapSeconds * 1000)
        .sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at));
    const { reads } = this;
    const failure = () => this.failAfterBatches;
    return {
      mark,
      async *changedRows(from, overlapSeconds, batchSize) {
        reads.push({ from, overlapSeconds, batchSize });
        const changed = since(from, overlapSeconds);
        for (let start = 0, batch = 0; start < changed.length; start += batchSize, batch++) {
          const failing = failure();
          if (failing && batch >= failing.batches) throw failing.error;
          yield changed.slice(start, start + batchSize);
        }
      },
      async unpublishedSince(from, overlapSeconds) {
        return since(from, overlapSeconds)
          .filter((row) => (JSON.parse(row.record) as { published?: unknown }).published === false)
          .map((row) => row.slug);
      },
      vanished: (candidates) => vanishedSlugs(candidates, sortedSlugs(rows)),
    };
  }
}

async function* sortedSlugs(rows: readonly ChangedRow[]): AsyncGenerator<string> {
  yield* rows.map((row) => row.slug).sort(compareBytes);
}

const FAKE_URL = 'postgres://fake-host/ppas';

/** A change reader whose snapshots read `relation` (it never connects). */
export function readerOf(relation: FakeRelation): PostgresChangeReader {
  const reader = new PostgresChangeReader(FAKE_URL, 'ppa_index_records');
  reader.snapshot = (work) => relation.snapshot(work);
  return reader;
}

/**
 * Every PostgresChangeReader made from now on reads `relation`, and its close() is counted; restore() undoes it.
 */
export function serveChangesFrom(relation: FakeRelation): { restore(): void; closed(): number } {
  const prototype = PostgresChangeReader.prototype;
  const { snapshot, close } = prototype;
  let closed = 0;
  prototype.snapshot = function <T>(work: (snapshot: ChangeSnapshot) => Promise<T>): Promise<T> {
    return relation.snapshot(work);
  };
  prototype.close = async () => void closed++;
  return {
    restore() {
      prototype.snapshot = snapshot;
      prototype.close = close;
    },
    closed: () => closed,
  };
}
