// Acceptance of `ppa-indexer sync --follow` (docs/record.md, "PostgreSQL"): the real CLI as a child process, the
// real API with its response cache at the default size, a real PostgreSQL with the reference schema and a real
// Elasticsearch. Unpublish, publish, edit and deactivate are each served within 10 s (measured); a hard delete goes
// at the next reconcile; a transaction that commits late with an older updated_at is applied (overlap window); an
// invalid record (one over a bound too) is reported and skipped while other changes flow; an unpublish during a
// reindex holds through the swap; kill -9 mid-batch loses nothing.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { aliasTarget } from '../../indexer/elasticsearch/aliases.js';
import { buildDocument } from '../../indexer/elasticsearch/buildDocument.js';
import { addMissingFields } from '../../indexer/elasticsearch/indexMapping.js';
import { readIndexMeta } from '../../indexer/elasticsearch/indexMeta.js';
import { readIndexDefinition } from '../../indexContract/mapping.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { startCli, type RunningCli } from '../support/indexerCliProcess.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';
import { within } from '../support/within.js';

const FRESHNESS_GOAL_MS = 10_000;
const sample = readFileSync(SAMPLE_PATH, 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => JSON.parse(line) as PpaRecord);
/** Distinct published, active records, one per scenario, so the scenarios never see each other's changes. */
const live = sample.filter((record) => record.published && record.active);
const pick = (() => {
  let next = 0;
  return (): PpaRecord => live[next++]!;
})();

/** Resolves when `stream` next writes a chunk holding `text` (output written before the call does not count). */
function nextOutput(stream: NodeJS.ReadableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      if (!chunk.toString('utf8').includes(text)) return;
      stream.off('data', onData);
      resolve();
    };
    stream.on('data', onData);
  });
}

function withTimeout<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe('indexer: sync --follow from PostgreSQL, served by the API', function () {
  this.timeout(180_000);
  const client = testEsClient();
  const alias = uniqueName('idx-sync');
  let db: TestDatabase;
  let app: TestApp;
  let sync: RunningCli;

  const startSync = (...extra: string[]): RunningCli =>
    startCli(['sync', '--follow', '--alias', alias, '--interval', '1', '--reconcile-every', '3', ...extra], {
      DATABASE_URL: db.url,
    });
  const status = async (slug: string): Promise<number> =>
    (await fetch(`${app.url}/api/v1/ppas/${slug}`)).status;
  const detail = async (slug: string): Promise<Record<string, unknown> | null> => {
    const response = await fetch(`${app.url}/api/v1/ppas/${slug}`);
    return response.status === 200
      ? ((await response.json()) as { data: Record<string, unknown> }).data
      : null;
  };
  const listed = async (slug: string): Promise<boolean> => {
    const response = await fetch(`${app.url}/api/v1/ppas?slug=${slug}`);
    expect(response.status).to.equal(200);
    return ((await response.json()) as { data: { slug: string }[] }).data.some((item) => item.slug === slug);
  };

  before(async () => {
    db = await createTestDatabase({ seed: true });
    await reindex({ client, alias, source: db.url });
    // The response cache on, at its default size, as users run it: a change must get through it too.
    app = await buildTestApp({
      alias,
      configOverrides: { responseCacheBytes: loadConfig({}).responseCacheBytes },
    });
    expect(app.responseCache?.maxBytes).to.equal(32 * 1024 * 1024);
    sync = startSync();
    await sync.waitForStderr('following changes');
  });
  after(async () => {
    if (sync && sync.child.exitCode === null) {
      sync.child.kill('SIGTERM');
      await sync.result;
    }
    await app?.close();
    await deleteIndices(client, alias);
    await db?.drop();
    await client.close();
  });

  it('unpublish: the detail answers 404 and the list drops it within 10 s', async () => {
    const { slug } = pick();
    expect(await status(slug)).to.equal(200);
    await db.query('UPDATE ppas SET published = false WHERE slug = $1', [slug]);
    const took = await within(FRESHNESS_GOAL_MS * 2, 'unpublished', async () => (await status(slug)) === 404);
    expect(took, 'ms until 404').to.be.below(FRESHNESS_GOAL_MS);
    expect(await listed(slug)).to.equal(false);
  });

  it('publish a new PPA: found within 10 s', async () => {
    const template = pick();
    const slug = uniqueName('new-ppa');
    const record = {
      ...template,
      slug,
      reference_code: slug.toUpperCase(),
      project_name: 'Brand New Hydro',
      updated_at: new Date().toISOString(),
    };
    await db.query('SELECT ppa_upsert_record($1::jsonb)', [JSON.stringify(record)]);
    const took = await within(FRESHNESS_GOAL_MS * 2, 'published', async () => (await status(slug)) === 200);
    expect(took, 'ms until found').to.be.below(FRESHNESS_GOAL_MS);
    expect(await listed(slug)).to.equal(true);
    expect((await detail(slug))?.project_name).to.equal('Brand New Hydro');
  });

  it('edit: the new values are served within 10 s, children included', async () => {
    const { slug } = pick();
    await db.query(
      `UPDATE ppas SET project_name = 'Renamed Solar Park', capacity_mw = 123.5 WHERE slug = $1`,
      [slug],
    );
    await db.query(
      `UPDATE ppa_procurement SET number_of_bidders = 42 WHERE ppa_id = (SELECT id FROM ppas WHERE slug = $1)`,
      [slug],
    );
    const took = await within(FRESHNESS_GOAL_MS * 2, 'edited', async () => {
      const data = await detail(slug);
      return (
        data?.project_name === 'Renamed Solar Park' &&
        data.capacity_mw === 123.5 &&
        (data.procurement as { number_of_bidders: number }).number_of_bidders === 42
      );
    });
    expect(took, 'ms until served').to.be.below(FRESHNESS_GOAL_MS);
  });

  it('deactivate: gone from the list within 10 s, the detail still 200', async () => {
    const { slug } = pick();
    expect(await listed(slug)).to.equal(true);
    await db.query('UPDATE ppas SET active = false WHERE slug = $1', [slug]);
    const took = await within(FRESHNESS_GOAL_MS * 2, 'deactivated', async () => !(await listed(slug)));
    expect(took, 'ms until unlisted').to.be.below(FRESHNESS_GOAL_MS);
    expect(await status(slug)).to.equal(200);
    expect((await detail(slug))?.active).to.equal(false);
  });

  it('hard delete: 404 after the next reconcile', async () => {
    const { slug } = pick();
    await db.query('DELETE FROM ppas WHERE slug = $1', [slug]);
    await within(30_000, 'deleted row gone', async () => (await status(slug)) === 404);
    expect(sync.child.exitCode).to.equal(null);
  });

  it('a transaction that commits late with an updated_at 30 s in the past is applied', async () => {
    const late = pick();
    const later = pick();
    const slow = new pg.Client({ connectionString: db.url });
    await slow.connect();
    try {
      await slow.query('BEGIN');
      await slow.query(
        `UPDATE ppas SET project_name = 'Committed Late', updated_at = now() - interval '30 seconds' WHERE slug = $1`,
        [late.slug],
      );
      // A later change, synced (so the high-water mark passes the late one's updated_at) before the commit.
      await db.query(`UPDATE ppas SET project_name = 'Changed Meanwhile' WHERE slug = $1`, [later.slug]);
      await within(
        FRESHNESS_GOAL_MS,
        'later change',
        async () => (await detail(later.slug))?.project_name === 'Changed Meanwhile',
      );
      const meta = await readIndexMeta(client, (await aliasTarget(client, alias))!);
      const { rows } = await slow.query<{ updated_at: Date }>('SELECT updated_at FROM ppas WHERE slug = $1', [
        late.slug,
      ]);
      expect(Date.parse(meta.high_water_mark!), 'the mark is past the late updated_at').to.be.above(
        rows[0]!.updated_at.getTime(),
      );
      await slow.query('COMMIT');
    } finally {
      await slow.end();
    }
    const took = await within(
      FRESHNESS_GOAL_MS * 2,
      'late commit',
      async () => (await detail(late.slug))?.project_name === 'Committed Late',
    );
    expect(took).to.be.below(FRESHNESS_GOAL_MS);
  });

  it('an invalid record is reported with its slug and field and skipped; other changes flow', async () => {
    const invalid = pick();
    const other = pick();
    await db.query('UPDATE ppas SET capacity_mw = -5 WHERE slug = $1', [invalid.slug]);
    await db.query(`UPDATE ppas SET project_name = 'Still Flowing' WHERE slug = $1`, [other.slug]);
    await within(
      FRESHNESS_GOAL_MS,
      'other change',
      async () => (await detail(other.slug))?.project_name === 'Still Flowing',
    );
    // pino writes the message as JSON: its quotes are escaped.
    await withTimeout(
      FRESHNESS_GOAL_MS,
      sync.waitForStderr(`skipped invalid record: slug \\"${invalid.slug}\\": capacity_mw must be >= 0`),
    );
    expect((await detail(invalid.slug))?.capacity_mw, 'the indexed version stays').to.equal(
      invalid.capacity_mw,
    );
    expect(sync.child.exitCode).to.equal(null);
  });

  it('a record over a bound (10,000 risk_features) is skipped like any invalid record (the same schema check)', async () => {
    const bloated = pick();
    await db.query(
      `UPDATE ppas SET risk_features = ARRAY(SELECT 'feature_' || n FROM generate_series(1, 10000) n) WHERE slug = $1`,
      [bloated.slug],
    );
    await withTimeout(
      FRESHNESS_GOAL_MS,
      sync.waitForStderr(
        `skipped invalid record: slug \\"${bloated.slug}\\": risk_features must NOT have more than 32 items`,
      ),
    );
    expect((await detail(bloated.slug))?.risk_features, 'the indexed version stays').to.deep.equal(
      bloated.risk_features,
    );
    // Valid again, so that the later scenarios (which change every valid published row) see it change too.
    await db.query('UPDATE ppas SET risk_features = $2 WHERE slug = $1', [
      bloated.slug,
      bloated.risk_features,
    ]);
  });

  it('unpublish during a reindex: 404 within 10 s, and still after the swap', async () => {
    const { slug } = pick();
    const before = await aliasTarget(client, alias);
    const rebuild = startCli(['reindex', '--alias', alias, '--source', db.url, '--skip-invalid']);
    await rebuild.waitForStderr('source validated'); // the reindex's snapshot is taken: it holds the record
    await db.query('UPDATE ppas SET published = false WHERE slug = $1', [slug]);
    const took = await within(
      FRESHNESS_GOAL_MS * 2,
      'unpublished during the reindex',
      async () => (await status(slug)) === 404,
    );
    expect(took).to.be.below(FRESHNESS_GOAL_MS);
    const result = await rebuild.result;
    expect(result.code, result.stderr).to.equal(0);
    const after = await aliasTarget(client, alias);
    expect(after).to.not.equal(before);
    expect(await client.exists({ index: after!, id: slug }), 'not in the new generation').to.equal(false);
    for (let probe = 0; probe < 10; probe++) {
      expect(await status(slug), 'after the swap').to.equal(404);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // And sync follows the new generation: a change after the swap is served.
    const next = pick();
    await db.query(`UPDATE ppas SET project_name = 'After The Swap' WHERE slug = $1`, [next.slug]);
    await within(
      FRESHNESS_GOAL_MS,
      'change after the swap',
      async () => (await detail(next.slug))?.project_name === 'After The Swap',
    );
  });

  it('SIGTERM stops cleanly; kill -9 mid-batch then a restart loses nothing', async () => {
    sync.child.kill('SIGTERM');
    const stopped = await sync.result;
    expect(stopped.code, stopped.stderr).to.equal(0);
    expect(stopped.stdout.split('\n').filter((line) => line.startsWith('{"sync"')).length).to.be.above(3);

    const index = (await aliasTarget(client, alias))!;
    sync = startSync('--batch-size', '5');
    // Its first run replays the overlap window (a new process remembers nothing): wait until that is done.
    await withTimeout(FRESHNESS_GOAL_MS, nextOutput(sync.child.stdout!, '{"sync"'));
    const { rows: changed } = await db.query<{ slug: string }>(
      `UPDATE ppas SET developer = developer || ' Restated' WHERE published AND capacity_mw >= 0 RETURNING slug`,
    );
    const rowCount = changed.length;
    await withTimeout(FRESHNESS_GOAL_MS, nextOutput(sync.child.stderr!, 'batch applied'));
    sync.child.kill('SIGKILL');
    await sync.result;
    const restated = async (): Promise<number> => {
      const { docs } = await client.mget<{ developer: string }>({
        index,
        ids: changed.map((row) => row.slug),
        _source: ['developer'],
      });
      return docs.filter((doc) => '_source' in doc && doc._source?.developer.endsWith(' Restated')).length;
    };
    const partial = await restated();
    expect(partial, 'killed mid-run: some batches applied').to.be.above(0);
    expect(partial, 'killed mid-run: not all').to.be.below(rowCount!);

    sync = startSync(); // takes over the dead process's lock at once
    await withTimeout(FRESHNESS_GOAL_MS, sync.waitForStderr('following changes'));
    await within(FRESHNESS_GOAL_MS * 2, 'replayed', async () => (await restated()) === rowCount);
  });
});

// An index built by an earlier release (its strict mapping lacks fields this release writes) stays writable by
// sync: the fields are added to its mapping, its _meta (mark, data version) kept.
describe('indexer: sync into a live index of an earlier mapping', function () {
  this.timeout(60_000);
  const client = testEsClient();
  const index = uniqueName('idx-sync-older-mapping');
  after(async () => {
    await client.indices.delete({ index }, { ignore: [404] });
    await client.close();
  });

  it('adds the missing fields, keeps _meta, and then takes a current document', async () => {
    const { settings, mappings } = readIndexDefinition();
    const properties = { ...mappings.properties };
    const added = ['technology_words', 'country_names', 'name_without_first_letter'].filter(
      (field) => field in properties,
    );
    expect(added, 'fields of this release to leave out').to.not.deep.equal([]);
    for (const field of added) delete properties[field];
    const meta = { built_at: '2026-11-25T00:00:00.000Z', records: 1, high_water_mark: 'x', data_version: 3 };
    await client.indices.create({ index, settings, mappings: { ...mappings, properties, _meta: meta } });
    const document = buildDocument(live[0]!);
    let refused: unknown;
    await client.index({ index, id: live[0]!.slug, document }).catch((error: unknown) => (refused = error));
    expect(String(refused), 'the strict mapping refuses a current document').to.match(
      /strict_dynamic_mapping/,
    );

    await addMissingFields(client, index);
    await client.index({ index, id: live[0]!.slug, document, refresh: true });
    expect((await client.count({ index })).count).to.equal(1);
    expect(await readIndexMeta(client, index)).to.deep.equal(meta);
  });
});
