// A reindex source in PostgreSQL: the whole relation read in one REPEATABLE READ, READ ONLY transaction (one
// snapshot for both passes), streamed through a server-side cursor (pg-query-stream) so memory stays flat.
// The snapshot's start is the new index's high-water mark: every change committed before it is in the index,
// and sync reads on from there (minus its overlap window).
import { createHash, type Hash } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import pg from 'pg';
import QueryStream from 'pg-query-stream';
import { SourceChangedError } from './errors.js';
import type { IndexMeta } from './indexMapping.js';
import { DEFAULT_RELATION, quotedRelation, rowProblems, UTC_MICROSECONDS } from './postgresRelation.js';
import type { RecordSource } from './recordSource.js';
import type { IndexerLogger } from './reindex.js';
import { Sync } from './sync.js';
import type { SourceItem } from './source.js';

const ROWS_PER_FETCH = 1000;

export class PostgresSource implements RecordSource {
  readonly format = 'postgres' as const;
  /** Digest of the slug column in read order, per pass: the passes must agree (the same rows, the same order). */
  private readonly passes: string[] = [];

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
    await client.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      // A scan that joins another one in progress starts mid-table; both passes must read in the same order.
      await client.query('SET LOCAL synchronize_seqscans = off');
      const { rows } = await client.query<{ mark: string; total: string }>(
        `SELECT to_char(now() AT TIME ZONE 'UTC', ${UTC_MICROSECONDS}) AS mark,
                (SELECT count(*) FROM ${quoted}) AS total`,
      );
      const { mark, total } = rows[0]!;
      return new PostgresSource(url, overlapSeconds, client, relation, quoted, Number(total), mark);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  async *items(options: {
    signal?: AbortSignal;
    onAmount?: (done: number) => void;
  }): AsyncGenerator<SourceItem> {
    const digest: Hash = createHash('sha256');
    const stream = this.client.query(
      new QueryStream(`SELECT slug, record FROM ${this.quoted}`, [], {
        batchSize: ROWS_PER_FETCH,
        highWaterMark: ROWS_PER_FETCH,
      }),
    );
    const abort = (): void => void stream.destroy(new Error(String(options.signal?.reason)));
    options.signal?.addEventListener('abort', abort, { once: true });
    let line = 0;
    try {
      for await (const row of stream as AsyncIterable<{ slug: string | null; record: unknown }>) {
        line++;
        digest.update(`${row.slug ?? ''}\n`);
        if (line % ROWS_PER_FETCH === 0) options.onAmount?.(line);
        const problems = rowProblems(row.slug, row.record);
        yield problems.length ? { line, value: row.record, problems } : { line, value: row.record };
      }
      this.passes.push(digest.digest('hex'));
    } finally {
      options.signal?.removeEventListener('abort', abort);
      stream.destroy();
    }
  }

  async assertUnchanged(): Promise<void> {
    if (this.passes.length < 2 || this.passes.some((pass) => pass !== this.passes[0]))
      throw new SourceChangedError(`relation ${this.relation} read in a different order on the second pass`);
  }

  meta(): Partial<IndexMeta> {
    return { source_relation: this.relation, high_water_mark: this.highWaterMark };
  }

  async catchUp(client: Client, index: string, logger: IndexerLogger): Promise<void> {
    const sync = new Sync({
      client,
      alias: index,
      url: this.url,
      relation: this.relation,
      logger,
      ...(this.overlapSeconds === undefined ? {} : { overlapSeconds: this.overlapSeconds }),
    });
    try {
      const summary = await sync.catchUp(index);
      logger.info({ catchUp: summary }, 'applied the changes made during the build');
    } finally {
      await sync.close();
    }
  }

  async close(): Promise<void> {
    await this.client.query('COMMIT').catch(() => undefined);
    await this.client.end();
  }
}
