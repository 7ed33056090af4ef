// A reindex source in PostgreSQL: the whole relation read in one REPEATABLE READ, READ ONLY transaction, streamed
// through a server-side cursor (pg-query-stream) so memory stays flat. The snapshot's start is the new index's
// high-water mark: every change committed before it is in the index, and sync reads on from there (minus its
// overlap window).
//
// The relation is read once: the validation pass writes each record's JSON text, a line per row, to a private
// temporary file, and the load pass reads that file like an NDJSON source (rows and lines share their numbers).
// Assembling records is the database's heaviest work, so this halves it, and the snapshot is released as soon as
// validation ends instead of being held through the load. Before it is released, the snapshot's slugs are
// written, in byte order, beside the records: the catch-up compares them with the rows that exist then to find
// the documents of deleted rows, without listing the new index.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import QueryStream from 'pg-query-stream';
import { SourceChangedError } from '../errors.js';
import { postgresSourceError } from './sourceErrors.js';
import type { IndexMeta } from '../elasticsearch/indexMapping.js';
import {
  DEFAULT_RELATION,
  NO_JIT,
  quotedRelation,
  rowProblems,
  sortedSlugs,
  UTC_MICROSECONDS,
} from './postgresRelation.js';
import type { CatchUpSource, RecordSource, ValidateOptions } from './recordSource.js';
import { readSlugList, writeSlugList } from './slugList.js';
import { readSource, type SourceItem } from './source.js';
import { validateItems, type SourceReport } from './validateSource.js';

const ROWS_PER_FETCH = 1000;

export class PostgresSource implements RecordSource {
  readonly format = 'postgres' as const;
  /**
   * The validation pass's copy of the records, and the snapshot's slugs in byte order (for the catch-up);
   * complete once that pass has read every row.
   */
  private spool: { directory: string; path: string; slugs: string; complete: boolean } | null = null;
  private connected = true;

  private constructor(
    private readonly url: string,
    private readonly overlapSeconds: number | undefined,
    private readonly client: pg.Client,
    private readonly relation: string,
    private readonly quoted: string,
    readonly total: number,
    private readonly highWaterMark: string,
  ) {}

  static async open(
    url: string,
    relation: string = DEFAULT_RELATION,
    overlapSeconds?: number,
  ): Promise<PostgresSource> {
    const quoted = quotedRelation(relation);
    const client = new pg.Client({ connectionString: url, application_name: 'ppa-indexer reindex' });
    await client.connect().catch((error: unknown) => {
      throw postgresSourceError(url, error);
    });
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(NO_JIT);
      const { rows } = await client.query<{ mark: string; total: string }>(
        `SELECT to_char(now() AT TIME ZONE 'UTC', ${UTC_MICROSECONDS}) AS mark,
                (SELECT count(*) FROM ${quoted}) AS total`,
      );
      const { mark, total } = rows[0]!;
      return new PostgresSource(url, overlapSeconds, client, relation, quoted, Number(total), mark);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw postgresSourceError(url, error); // a relation that is missing, or not readable by this login
    }
  }

  items(options: { signal?: AbortSignal; onAmount?: (done: number) => void }): AsyncIterable<SourceItem> {
    if (this.spool === null) return this.readRelation(options);
    if (!this.spool.complete)
      throw new SourceChangedError(`relation ${this.relation}: the first pass did not read every row`);
    return readSource(this.spool.path, 'ndjson', options.signal ? { signal: options.signal } : {});
  }

  /** Pass 1 reads the relation itself, in its snapshot, and spools it for the load. */
  validate(options: ValidateOptions): Promise<SourceReport> {
    return validateItems(this.items(options), this.format, options);
  }

  private async *readRelation(options: {
    signal?: AbortSignal;
    onAmount?: (done: number) => void;
  }): AsyncGenerator<SourceItem> {
    const directory = await mkdtemp(join(tmpdir(), 'ppa-indexer-'));
    this.spool = {
      directory,
      path: join(directory, 'records.ndjson'),
      slugs: join(directory, 'slugs'),
      complete: false,
    };
    const out: WriteStream = createWriteStream(this.spool.path, { mode: 0o600 });
    const stream = this.client.query(
      new QueryStream(`SELECT slug, record::text AS record FROM ${this.quoted}`, [], {
        batchSize: ROWS_PER_FETCH,
        highWaterMark: ROWS_PER_FETCH,
      }),
    );
    const abort = (): void => void stream.destroy(new Error(String(options.signal?.reason)));
    options.signal?.addEventListener('abort', abort, { once: true });
    let line = 0;
    // Lines go to the file a fetch's worth at a time: one write per row cost about as much as reading it.
    let pending: string[] = [];
    const flush = async () => {
      const text = pending.join('');
      pending = [];
      if (!out.write(text)) await once(out, 'drain');
    };
    try {
      for await (const row of stream as AsyncIterable<{ slug: string | null; record: string | null }>) {
        line++;
        // One row, one line. jsonb's text and json_build_object's hold no raw newline, but a json column keeps
        // the text it was given, where a newline can only be whitespace (strings escape it).
        const raw = row.record ?? 'null';
        const text = raw.includes('\n') ? raw.replaceAll('\n', ' ') : raw;
        pending.push(text, '\n');
        if (line % ROWS_PER_FETCH === 0) {
          await flush();
          options.onAmount?.(line);
        }
        const value = JSON.parse(text) as unknown;
        const problems = rowProblems(row.slug, value);
        yield problems.length ? { line, value, problems } : { line, value };
      }
      await flush();
      out.end();
      await finished(out);
      await writeSlugList(this.spool.slugs, sortedSlugs(this.client, this.quoted));
      this.spool.complete = true;
      await this.disconnect(); // the snapshot is no longer needed: release it now
    } finally {
      options.signal?.removeEventListener('abort', abort);
      stream.destroy();
      if (!this.spool.complete) out.destroy();
    }
  }

  /** The load pass read the file the validation pass wrote whole. */
  async assertUnchanged(): Promise<void> {
    if (!this.spool?.complete)
      throw new SourceChangedError(`relation ${this.relation}: the first pass did not read every row`);
  }

  meta(): Partial<IndexMeta> {
    return { source_relation: this.relation, high_water_mark: this.highWaterMark };
  }

  catchUpFrom(): CatchUpSource {
    const spool = this.spool;
    if (!spool?.complete)
      throw new SourceChangedError(`relation ${this.relation}: the first pass did not read every row`);
    return {
      url: this.url,
      relation: this.relation,
      ...(this.overlapSeconds === undefined ? {} : { overlapSeconds: this.overlapSeconds }),
      snapshotSlugs: () => readSlugList(spool.slugs),
    };
  }

  async close(): Promise<void> {
    await this.disconnect();
    if (this.spool) await rm(this.spool.directory, { recursive: true, force: true });
  }

  private async disconnect(): Promise<void> {
    if (!this.connected) return;
    this.connected = false;
    await this.client.query('COMMIT').catch(() => undefined);
    await this.client.end().catch(() => undefined);
  }
}
