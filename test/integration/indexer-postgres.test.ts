// reindex --source postgres://…: the reference schema's view, seeded with the sample, gives the very documents
// the sample file gives; its snapshot's high-water mark is in the new index's _meta; invalid rows are refused
// naming row, slug and field. Real PostgreSQL (test/support/postgres.ts) and Elasticsearch.
import type { Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { isDeepStrictEqual } from 'node:util';
import { readIndexMeta } from '../../indexer/elasticsearch/indexMeta.js';
import { InvalidSourceError } from '../../indexer/sources/validateSource.js';
import { checkRecord } from '../../indexer/sources/recordSchema.js';
import { buildDocument } from '../../indexer/elasticsearch/buildDocument.js';
import type { PpaRecord } from '../../indexContract/record.js';
import type { IndexerLogger } from '../../indexer/indexerLog.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { runCli, summaryOf } from '../support/indexerCliProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { SAMPLE_PATH } from '../support/sampleIndex.js';

async function documentsOf(client: Client, index: string): Promise<Map<string, unknown>> {
  const response = await client.search({ index, size: 10_000, query: { match_all: {} } });
  return new Map(response.hits.hits.map((hit) => [hit._id!, hit._source]));
}

describe('indexer: reindex from PostgreSQL', function () {
  this.timeout(120_000);
  const client = testEsClient();
  let db: TestDatabase;
  const prefix = uniqueName('idx-pg');

  before(async () => {
    db = await createTestDatabase({ seed: true });
  });
  after(async () => {
    await deleteIndices(client, prefix);
    await db?.drop();
    await client.close();
  });

  it('the view assembles records that pass the record schema and build the documents the file builds', async () => {
    const file = new Map(
      readFileSync(SAMPLE_PATH, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as PpaRecord)
        .map((record) => [record.slug, record]),
    );
    const { rows } = await db.query<{ slug: string; record: PpaRecord }>(
      'SELECT slug, record FROM ppa_index_records',
    );
    expect(rows).to.have.length(file.size);
    for (const { slug, record } of rows) {
      expect(checkRecord(record), slug).to.deep.equal([]);
      expect(isDeepStrictEqual(buildDocument(record), buildDocument(file.get(slug)!)), slug).to.equal(true);
    }
  });

  it('gives the same documents as reindexing the sample file, and records the snapshot high-water mark', async () => {
    const fromFile = await indexSample(client, `${prefix}-file`);
    const before = (await db.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
    const fromPg = await reindex({ client, alias: `${prefix}-pg`, source: db.url });
    expect(fromPg.format).to.equal('postgres');
    expect(fromPg.indexed).to.equal(fromFile.indexed);
    expect(fromPg.unpublished).to.equal(fromFile.unpublished);

    const [fileDocuments, pgDocuments] = await Promise.all([
      documentsOf(client, fromFile.index!),
      documentsOf(client, fromPg.index!),
    ]);
    expect(pgDocuments.size).to.equal(fileDocuments.size);
    for (const [slug, document] of fileDocuments) expect(pgDocuments.get(slug), slug).to.deep.equal(document);

    const meta = await readIndexMeta(client, fromPg.index!);
    expect(meta.source_relation).to.equal('ppa_index_records');
    expect(meta.high_water_mark).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Date.parse(meta.high_water_mark!)).to.be.at.least(before.getTime() - 1);
    expect(Date.parse(meta.high_water_mark!)).to.be.at.most(Date.now() + 1000);
  });

  it('refuses invalid rows naming row, slug and field; nothing is written', async () => {
    const alias = `${prefix}-invalid`;
    await db.query(`UPDATE ppas SET capacity_mw = -1 WHERE slug = 'evora-nova-solar-1'`);
    try {
      const refused = await reindex({ client, alias, source: db.url }).catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(InvalidSourceError);
      expect((refused as Error).message).to.match(
        /row \d+ \(slug "evora-nova-solar-1"\): capacity_mw must be >= 0/,
      );
      expect(await client.indices.existsAlias({ name: alias })).to.equal(false);
    } finally {
      await db.query(
        `UPDATE ppas SET capacity_mw = 0.7, updated_at = '2022-09-26T14:01:59Z' WHERE slug = 'evora-nova-solar-1'`,
      );
    }
  });

  it('a row deleted during the build is not in the new index when it goes live; one changed then is', async () => {
    const alias = `${prefix}-during`;
    // A live generation first: the change log's comparison must see what catch-up changed after the build.
    await reindex({ client, alias, source: db.url });
    const { rows } = await db.query<{ slug: string }>(
      `SELECT slug FROM ppas WHERE published ORDER BY slug LIMIT 2`,
    );
    const [deleted, edited] = rows.map((row) => row.slug) as [string, string];
    const writer = new pg.Client({ connectionString: db.url });
    await writer.connect();
    let changes: Promise<unknown> | null = null;
    const catchUps: { vanished: number; written: number }[] = [];
    // The snapshot is taken and read once 'source validated' is logged: change the rows then, before the load.
    const logger = {
      info: (fields: unknown, message?: string) => {
        if (message === 'source validated')
          changes = writer.query(
            `BEGIN; DELETE FROM ppas WHERE slug = '${deleted}';
             UPDATE ppas SET project_name = 'Renamed During The Build' WHERE slug = '${edited}'; COMMIT`,
          );
        const catchUp = (fields as { catchUp?: { vanished: number; written: number } }).catchUp;
        if (catchUp) catchUps.push(catchUp);
      },
      warn: () => undefined,
      error: () => undefined,
    } as unknown as IndexerLogger;
    try {
      const result = await reindex({ client, alias, source: db.url, logger });
      await changes;
      expect(changes, 'the rows were changed during the build').to.not.equal(null);
      expect(catchUps).to.deep.equal([{ ...catchUps[0], vanished: 1, written: 1 }]);
      expect(await client.exists({ index: result.index!, id: deleted }), 'deleted row').to.equal(false);
      const document = await client.get<{ project_name: string }>({ index: result.index!, id: edited });
      expect(document._source?.project_name).to.equal('Renamed During The Build');
      expect(await client.count({ index: result.index! })).to.include({ count: result.indexed - 1 });
      expect(result.changes).to.deep.equal({
        added: 0,
        updated: 1,
        removed: 1,
        unchanged: result.indexed - 2,
      });
    } finally {
      await writer.end();
    }
  });

  it('reads a json column whose text holds newlines (an operator view of its own) as one record per row', async () => {
    await db.query(
      'CREATE VIEW pretty_records AS SELECT slug, updated_at, jsonb_pretty(record::jsonb)::json AS record FROM ppa_index_records',
    );
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pretty_records WHERE strpos(record::text, E'\\n') > 0`,
    );
    expect(rows[0]!.n).to.be.greaterThan(0);
    const published = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM ppas WHERE published');
    const fromPg = await reindex({
      client,
      alias: `${prefix}-pretty`,
      source: db.url,
      relation: 'pretty_records',
    });
    expect(fromPg.indexed).to.equal(published.rows[0]!.n);
    expect(fromPg.invalid).to.equal(0);
  });

  it('the CLI takes DATABASE_URL as the default source and --relation names another view', async () => {
    await db.query(
      "CREATE VIEW only_solar AS SELECT * FROM ppa_index_records WHERE record->>'technology' = 'solar_pv'",
    );
    const alias = `${prefix}-cli`;
    const result = await runCli(['reindex', '--alias', alias, '--relation', 'only_solar'], {
      DATABASE_URL: db.url,
    });
    expect(result.code, result.stderr).to.equal(0);
    const summary = summaryOf(result);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM only_solar WHERE (record->>'published')::boolean`,
    );
    expect(summary.format).to.equal('postgres');
    expect(summary.indexed).to.equal(rows[0]!.n);
    const bad = await runCli(['reindex', '--alias', alias, '--relation', 'x; drop table ppas'], {
      DATABASE_URL: db.url,
    });
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.match(/--relation must be NAME or SCHEMA.NAME/);
  });
});
