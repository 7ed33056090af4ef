// No false changes after an upgrade (issue 45): a generation an older release built (no content_hash, or one of
// another definition, and no current content_hash_version in its _meta) is compared by the hashes derived from its
// served fields, so a reindex of an unchanged source logs no event and a changed one logs exactly its changes; the
// same for a rollback onto such a generation and for sync's batches and reconcile over it. Real Elasticsearch and
// PostgreSQL, the real reindex, rollback and sync.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeLog } from '../../indexer/changes/changeLog.js';
import { aliasTarget } from '../../indexer/elasticsearch/aliases.js';
import { sourceHashedEntries } from '../../indexer/elasticsearch/derivedHashes.js';
import { readIndexMeta } from '../../indexer/elasticsearch/indexMeta.js';
import { servedEntries, type ServedEntry } from '../../indexer/elasticsearch/servedEntries.js';
import { slugBounds } from '../../indexer/elasticsearch/slugRanges.js';
import { planReindex } from '../../indexer/reindex/plan.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { rollback } from '../../indexer/reindex/rollback.js';
import { compareBytes } from '../../indexer/slugOrder.js';
import { Sync } from '../../indexer/sync/sync.js';
import { CONTENT_HASH_VERSION } from '../../indexContract/contentHash.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { eventsAfter, lastSeq, makeOlder, type LoggedEvent } from '../support/olderGeneration.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { indexSample, SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

const lines = readFileSync(SAMPLE_PATH, 'utf8').trimEnd().split('\n');
const sample = lines.map((line) => JSON.parse(line) as PpaRecord);
const published = sample.filter((record) => record.published);
const live = published.filter((record) => record.active);

async function all(entries: AsyncIterable<ServedEntry>): Promise<ServedEntry[]> {
  const collected: ServedEntry[] = [];
  for await (const entry of entries) collected.push(entry);
  return collected;
}

/** Events as (reason, slug), in byte order of the slug (a generation's events are logged in that order). */
/**
 * The added record is a diesel PPA in USD, the tenth of its peer group: the group now has a tariff fence, and this
 * PPA's rate is above it, so its flags change (a real change: docs/flags.md, "Peers and the tariff fence").
 */
const FENCE_MOVED = 'los-angeles-diesel-power-station-291';

const named = (events: LoggedEvent[]): string[] => events.map(({ reason, slug }) => `${reason} ${slug}`);
/** "reason slug" names in the order a generation's events are logged: byte order of the slug. */
const inSlugOrder = (names: string[]): string[] =>
  [...names].sort((a, b) => compareBytes(a.slice(a.indexOf(' ') + 1), b.slice(b.indexOf(' ') + 1)));

/** Documents of `index` that have a content_hash. */
async function hashedDocuments(client: ReturnType<typeof testEsClient>, index: string): Promise<number> {
  return (await client.count({ index, query: { exists: { field: 'content_hash' } } })).count;
}

describe("indexer: a reindex or rollback over an older release's generation logs only real changes", function () {
  this.timeout(180_000);
  const client = testEsClient();
  const alias = uniqueName('idx-hash');
  const dir = mkdtempSync(join(tmpdir(), 'ppa-hash-'));
  const changedPath = join(dir, 'changed.ndjson');
  const [edited1, edited2, edited3, removed] = [live[0]!, live[1]!, live[2]!, live[3]!];
  const added: PpaRecord = {
    ...live[4]!,
    slug: 'zz-content-hash-new-solar',
    reference_code: 'ZZ-HASH-001',
    project_name: 'Content Hash New Solar',
  };

  before(() => {
    const edits = new Map<string, Partial<PpaRecord>>([
      [edited1.slug, { developer: `${edited1.developer} Holdings` }],
      [edited2.slug, { capacity_mw: edited2.capacity_mw + 1 }],
      [edited3.slug, { risk_features: [...(edited3.risk_features ?? []), 'government_guarantee'] }],
    ]);
    const changed = sample
      .filter((record) => record.slug !== removed.slug)
      .map((record) => ({ ...record, ...edits.get(record.slug) }));
    writeFileSync(changedPath, [...changed, added].map((record) => JSON.stringify(record)).join('\n') + '\n');
  });
  after(async () => {
    await deleteIndices(client, alias);
    rmSync(dir, { recursive: true, force: true });
    await client.close();
  });

  it('derives from the _source of a current generation exactly the hashes it stored', async () => {
    const { index } = await indexSample(client, alias);
    expect((await readIndexMeta(client, index!)).content_hash_version).to.equal(CONTENT_HASH_VERSION);
    const stored = await all(servedEntries(client, index!));
    expect(stored).to.have.length(published.length);
    expect(stored.every(({ hash }) => typeof hash === 'string')).to.equal(true);
    expect(await all(sourceHashedEntries(client, index!))).to.deep.equal(stored);
    const bounds = await slugBounds(client, index!, 40);
    expect(bounds.length).to.be.greaterThan(5);
    expect(await all(sourceHashedEntries(client, index!, { bounds, pageSize: 7 }))).to.deep.equal(stored);
  });

  it('no content_hash and no hash version: a reindex of the same source logs 0 events', async () => {
    const older = (await aliasTarget(client, alias))!;
    await makeOlder(client, older, { hashes: 'removed' });
    expect(await hashedDocuments(client, older)).to.equal(0);
    expect((await readIndexMeta(client, older)).content_hash_version).to.equal(undefined);
    const since = await lastSeq(client, alias);

    const summary = await indexSample(client, alias);
    expect(summary.previousIndex).to.equal(older);
    expect(summary.changes).to.deep.equal({
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: published.length,
    });
    expect(await eventsAfter(client, alias, since)).to.deep.equal([]);
  });

  it('no content_hash and no hash version: a reindex of a changed source logs exactly its changes', async () => {
    const older = (await aliasTarget(client, alias))!;
    await makeOlder(client, older, { hashes: 'removed' });
    const since = await lastSeq(client, alias);

    const summary = await indexSample(client, alias, changedPath);
    expect(summary.changes).to.deep.equal({
      added: 1,
      updated: 4,
      removed: 1,
      unchanged: published.length - 5,
    });
    expect(named(await eventsAfter(client, alias, since))).to.deep.equal(
      inSlugOrder([
        `updated ${edited1.slug}`,
        `updated ${edited2.slug}`,
        `updated ${edited3.slug}`,
        `updated ${FENCE_MOVED}`,
        `deleted ${removed.slug}`,
        `published ${added.slug}`,
      ]),
    );
  });

  it('a rollback onto such a generation logs only the real differences', async () => {
    const since = await lastSeq(client, alias);
    const result = await rollback(client, alias);
    expect(
      await hashedDocuments(client, result.to),
      'the generation rolled back onto has no hashes',
    ).to.equal(0);
    expect(result.changes).to.deep.equal({
      added: 1,
      updated: 4,
      removed: 1,
      unchanged: published.length - 5,
    });
    expect(named(await eventsAfter(client, alias, since))).to.deep.equal(
      inSlugOrder([
        `updated ${edited1.slug}`,
        `updated ${edited2.slug}`,
        `updated ${edited3.slug}`,
        `updated ${FENCE_MOVED}`,
        `published ${removed.slug}`,
        `deleted ${added.slug}`,
      ]),
    );
  });

  it('hashes of an older definition (version 0): a reindex of the same source, and a rollback, log 0 events', async () => {
    const older = (await aliasTarget(client, alias))!;
    await makeOlder(client, older, { hashes: 'garbage', version: 0 });
    expect(await hashedDocuments(client, older)).to.equal(published.length);
    expect((await readIndexMeta(client, older)).content_hash_version).to.equal(0);
    const since = await lastSeq(client, alias);

    const summary = await indexSample(client, alias);
    expect(summary.changes).to.include({ added: 0, updated: 0, removed: 0 });
    const back = await rollback(client, alias);
    expect(back.to).to.equal(older);
    expect(back.changes).to.include({ added: 0, updated: 0, removed: 0 });
    expect(await eventsAfter(client, alias, since)).to.deep.equal([]);
  });

  it('reindex --plan over such a generation counts only the real changes', async () => {
    const live = (await aliasTarget(client, alias))!;
    expect((await readIndexMeta(client, live)).content_hash_version, 'live: the older generation').to.equal(
      0,
    );
    const plan = await planReindex({ client, alias, source: changedPath });
    expect(plan).to.include({ added: 1, updated: 4, removed: 1 });
  });
});

describe("indexer: sync over an older release's live generation logs only real changes", function () {
  this.timeout(180_000);
  const client = testEsClient();
  const alias = uniqueName('idx-hash-sync');
  /** An overlap that re-reads every row of the relation, changed or not. */
  const EVERY_ROW_S = 100 * 365 * 24 * 3600;
  let db: TestDatabase;

  const syncOnce = async (): Promise<Awaited<ReturnType<Sync['run']>>> => {
    const sync = new Sync({
      client,
      alias,
      url: db.url,
      overlapSeconds: EVERY_ROW_S,
      changeLog: new ChangeLog(client, alias),
    });
    try {
      return await sync.run(() => true);
    } finally {
      await sync.close();
    }
  };

  before(async () => {
    db = await createTestDatabase({ seed: true });
    await reindex({ client, alias, source: db.url });
  });
  after(async () => {
    await deleteIndices(client, alias);
    await db?.drop();
    await client.close();
  });

  it('rewrites every row unchanged and logs nothing; an edit and a hard delete log exactly those', async () => {
    const index = (await aliasTarget(client, alias))!;
    await makeOlder(client, index, { hashes: 'removed' });
    const since = await lastSeq(client, alias);

    const unchanged = await syncOnce();
    expect(unchanged.written, 'every published row written again').to.equal(published.length);
    expect(unchanged).to.include({ logged: 0, reconciled: true, vanished: 0 });
    expect(await eventsAfter(client, alias, since)).to.deep.equal([]);

    // Older again (the rewrite gave every document a hash), then one edit and one hard delete.
    await makeOlder(client, index, { hashes: 'removed' });
    const [edited, deleted] = [live[0]!, live[1]!];
    await db.query('UPDATE ppas SET capacity_mw = capacity_mw + 1 WHERE slug = $1', [edited.slug]);
    await db.query('DELETE FROM ppas WHERE slug = $1', [deleted.slug]);
    const changed = await syncOnce();
    expect(changed).to.include({ logged: 2, reconciled: true, vanished: 1 });
    expect(named(await eventsAfter(client, alias, since))).to.deep.equal([
      `updated ${edited.slug}`,
      `deleted ${deleted.slug}`,
    ]);
  });
});
