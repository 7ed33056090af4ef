// What changed in the PostgreSQL relation (postgresRelation.ts) since a high-water mark, read for sync and for a
// reindex's catch-up (indexer/sync/). Each run reads in one REPEATABLE READ, READ ONLY snapshot, so the rows it
// applies, the slugs it compares and the mark it moves to (the snapshot's start) all describe one moment.
import pg from 'pg';
import QueryStream from 'pg-query-stream';
import { vanishedSlugs } from '../slugOrder.js';
import { NO_JIT, quotedRelation, sortedSlugs, UTC_MICROSECONDS } from './postgresRelation.js';
import { postgresSourceError } from './sourceErrors.js';

/** A row as read: its record's JSON text, unparsed. */
export interface ChangedRow {
  slug: string;
  updated_at: string;
  record: string;
}

/** What one snapshot reads. */
export interface ChangeSnapshot {
  /** The snapshot's start: where the next run reads on from once this one has applied everything. */
  readonly mark: string;
  /**
   * Rows with updated_at > from − overlap, in order of updated_at, `batchSize` at a time (the last batch may be
   * smaller, and none is empty). The overlap re-reads a window so that a transaction that committed after an
   * earlier run, with an older updated_at, is still read.
   */
  changedRows(from: string, overlapSeconds: number, batchSize: number): AsyncGenerator<ChangedRow[]>;
  /** Slugs of the rows changed in the same window whose record is unpublished. */
  unpublishedSince(from: string, overlapSeconds: number): Promise<string[]>;
  /** The slugs among `candidates` (ascending in byte order) that are no longer rows of the relation. */
  vanished(candidates: AsyncIterable<string>): AsyncGenerator<string>;
}

/** One connection, kept between runs (sync --follow); a lost one is reported by the run that used it. */
export class PostgresChangeReader {
  private readonly quoted: string;
  private db: pg.Client | null = null;

  constructor(
    private readonly url: string,
    relation: string,
  ) {
    this.quoted = quotedRelation(relation); // a bad name is a usage error before anything connects
  }

  /** Runs `work` in a new snapshot: committed when it resolves, rolled back when it throws. */
  async snapshot<T>(work: (snapshot: ChangeSnapshot) => Promise<T>): Promise<T> {
    const db = await this.connection();
    await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      await db.query(NO_JIT);
      const { rows } = await db.query<{ mark: string }>(
        `SELECT to_char(now() AT TIME ZONE 'UTC', ${UTC_MICROSECONDS}) AS mark`,
      );
      const result = await work(this.reading(db, rows[0]!.mark));
      await db.query('COMMIT');
      return result;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    const db = this.db;
    this.db = null;
    await db?.end().catch(() => undefined);
  }

  private reading(db: pg.Client, mark: string): ChangeSnapshot {
    const quoted = this.quoted;
    return {
      mark,
      async *changedRows(from, overlapSeconds, batchSize) {
        const changed = db.query(
          new QueryStream(
            `SELECT slug, to_char(updated_at AT TIME ZONE 'UTC', ${UTC_MICROSECONDS}) AS updated_at,
                    record::text AS record
               FROM ${quoted}
              WHERE updated_at > $1::timestamptz - make_interval(secs => $2)
              ORDER BY updated_at`,
            [from, overlapSeconds],
            { batchSize, highWaterMark: batchSize },
          ),
        );
        let batch: ChangedRow[] = [];
        try {
          for await (const row of changed as AsyncIterable<ChangedRow>) {
            batch.push(row);
            if (batch.length >= batchSize) {
              yield batch;
              batch = [];
            }
          }
        } finally {
          changed.destroy();
        }
        if (batch.length > 0) yield batch;
      },
      async unpublishedSince(from, overlapSeconds) {
        const { rows } = await db.query<{ slug: string }>(
          `SELECT slug FROM ${quoted}
            WHERE updated_at > $1::timestamptz - make_interval(secs => $2)
              AND (record::jsonb)->'published' = 'false'::jsonb`,
          [from, overlapSeconds],
        );
        return rows.map((row) => row.slug);
      },
      vanished: (candidates) => vanishedSlugs(candidates, sortedSlugs(db, quoted)),
    };
  }

  private async connection(): Promise<pg.Client> {
    if (this.db) return this.db;
    const db = new pg.Client({ connectionString: this.url, application_name: 'ppa-indexer sync' });
    // A lost connection is reported by the run that uses it; the next run connects again.
    db.on('error', () => {
      if (this.db === db) this.db = null;
    });
    await db.connect().catch((error: unknown) => {
      throw postgresSourceError(this.url, error);
    });
    this.db = db;
    return db;
  }
}
