// The red flags in the indexer (issue 74): a reindex computes the peer fences over the set it indexes and stores
// them with the index (_meta flag_fences, with computed_at); each document carries its flags, the codes undecidable
// and their count, and the evidence derives from a document and its index's fences (as the detail does); a reindex that moves a fence raises or clears tariff_outlier on exactly the right
// PPAs, and those (with the peers whose rates changed), no others, appear in the change log; sync flags a changed
// record with the fences of the index it writes. Real Elasticsearch and PostgreSQL, the real reindex and sync.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeLog } from '../../indexer/changes/changeLog.js';
import { aliasTarget } from '../../indexer/elasticsearch/aliases.js';
import { readIndexMeta } from '../../indexer/elasticsearch/indexMeta.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { Sync } from '../../indexer/sync/sync.js';
import type { IndexDocument } from '../../indexContract/document.js';
import { flagEvidence, peerLookup, type FlagEvidence } from '../../indexContract/flags.js';
import type { PpaRecord } from '../../indexContract/record.js';
import {
  AT_FENCE,
  flagBoundaryRecords,
  INACTIVE_IN_GROUP,
  MOVED,
  cleanRecord,
} from '../support/flagRecords.js';
import { eventsAfter, lastSeq } from '../support/olderGeneration.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { ndjsonText } from '../support/ppaRecords.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

type Client = ReturnType<typeof testEsClient>;

async function documentOf(client: Client, alias: string, slug: string): Promise<IndexDocument> {
  const response = await client.search<IndexDocument>({ index: alias, query: { term: { slug } }, size: 1 });
  const hit = response.hits.hits[0];
  if (!hit) throw new Error(`no document ${slug}`);
  return hit._source!;
}

/** The evidence of a document's flags as the detail derives it: with the fences of the index the alias serves. */
async function evidenceOf(client: Client, alias: string, document: IndexDocument): Promise<FlagEvidence[]> {
  const fences = (await readIndexMeta(client, (await aliasTarget(client, alias))!)).flag_fences;
  return flagEvidence(document, peerLookup(fences), document.flags);
}

describe('indexer: red flags computed by the reindex, fences stored with the index', function () {
  this.timeout(180_000);
  const client = testEsClient();
  const alias = uniqueName('idx-flags');
  const dir = mkdtempSync(join(tmpdir(), 'ppa-flags-'));
  const firstPath = join(dir, 'first.ndjson');
  const movedPath = join(dir, 'moved.ndjson');

  before(() => {
    writeFileSync(firstPath, ndjsonText(flagBoundaryRecords()));
    writeFileSync(movedPath, ndjsonText(flagBoundaryRecords({ moved: true })));
  });
  after(async () => {
    await deleteIndices(client, alias);
    rmSync(dir, { recursive: true, force: true });
    await client.close();
  });

  it('stores the fences of every group, computed at the build; 9 peers get none, 10 get type-7 fences', async () => {
    const summary = await reindex({ client, alias, source: firstPath });
    const meta = await readIndexMeta(client, summary.index!);
    expect(meta.flag_fences?.computed_at).to.equal(meta.built_at);
    expect(meta.flag_fences?.methodology_version).to.equal(1);
    expect(meta.flag_fences?.groups).to.deep.equal([
      // geothermal/JPY: every clean record and boundary case with a rate (published, active)
      {
        technology: 'geothermal',
        currency: 'JPY',
        count: meta.flag_fences!.groups[0]!.count,
        q1: 12,
        q3: 12,
        fence: 12,
      },
      { technology: 'tidal', currency: 'EUR', count: 10, q1: 0.25, q3: 0.5, fence: 0.875 },
      { technology: 'tidal', currency: 'USD', count: 9, q1: null, q3: null, fence: null },
    ]);
    expect(meta.flag_fences!.groups[0]!.count).to.be.greaterThan(10);
  });

  it('writes each document’s flags, the codes undecidable and their count; the evidence derives from them', async () => {
    const atFence = await documentOf(client, alias, AT_FENCE);
    expect(atFence.flags).to.deep.equal([]);
    expect(atFence.flags_undecidable).to.not.include('tariff_outlier');
    const small = await documentOf(client, alias, 'flag-peer-b-8');
    expect(small.flags).to.deep.equal([]);
    expect(small.flags_undecidable).to.include('tariff_outlier');
    // Nothing of the evidence is stored: it is the detail's, derived.
    expect(atFence).to.not.have.property('flag_evidence');
    const many = await documentOf(client, alias, 'flag-many');
    expect(many.flags).to.deep.equal([
      'no_competition',
      'award_before_tender_close',
      'signed_before_award',
      'late_disclosure',
      'contract_not_published',
      'guarantee_without_competition',
    ]);
    expect(many.flag_count).to.equal(6);
    const evidence = await evidenceOf(client, alias, many);
    expect(evidence.map((one) => one.code)).to.deep.equal(many.flags);
    expect(evidence[3]).to.deep.equal({
      code: 'late_disclosure',
      inputs: { signed_date: '2020-01-15', published_on: '2023-06-01', days: 1233 },
      explanation:
        'The contract signed on 2020-01-15 was published on 2023-06-01, 1233 days later (more than 365).',
    });
    const tender = await documentOf(client, alias, 'flag-tender-29-days');
    expect(tender.flags).to.deep.equal(['short_tender']);
    // Facets count flags with the other facet values, in one field.
    expect(tender.facet_values).to.include('flags:short_tender');
  });

  it('a reindex that moves a fence raises tariff_outlier on the right PPAs; only they and the moved peers change', async () => {
    const since = await lastSeq(client, alias);
    const summary = await reindex({ client, alias, source: movedPath });
    const meta = await readIndexMeta(client, summary.index!);
    expect(meta.flag_fences!.groups[1]).to.deep.equal({
      technology: 'tidal',
      currency: 'EUR',
      count: 10,
      q1: 0.25,
      q3: 0.45,
      fence: 0.45 + 1.5 * (0.45 - 0.25),
    });
    expect((await documentOf(client, alias, AT_FENCE)).flags).to.deep.equal(['tariff_outlier']);
    const inactive = await documentOf(client, alias, INACTIVE_IN_GROUP);
    expect(inactive.flags).to.deep.equal(['tariff_outlier']);
    expect((await evidenceOf(client, alias, inactive))[0]!.peers).to.deep.equal({
      technology: 'tidal',
      currency: 'EUR',
      count: 10,
      q1: 0.25,
      q3: 0.45,
      fence: 0.45 + 1.5 * (0.45 - 0.25),
    });
    expect(summary.changes).to.include({ added: 0, removed: 0, updated: 4 });
    const events = await eventsAfter(client, alias, since);
    expect(events.map(({ reason, slug }) => `${reason} ${slug}`).sort()).to.deep.equal(
      [AT_FENCE, INACTIVE_IN_GROUP, ...MOVED].map((slug) => `updated ${slug}`).sort(),
    );
  });

  it('a reindex that moves the fence back clears them again, and logs the same PPAs', async () => {
    const since = await lastSeq(client, alias);
    const summary = await reindex({ client, alias, source: firstPath });
    expect((await documentOf(client, alias, AT_FENCE)).flags).to.deep.equal([]);
    expect((await documentOf(client, alias, INACTIVE_IN_GROUP)).flags).to.deep.equal([]);
    expect(summary.changes).to.include({ updated: 4 });
    const events = await eventsAfter(client, alias, since);
    expect(events.map(({ slug }) => slug).sort()).to.deep.equal(
      [AT_FENCE, INACTIVE_IN_GROUP, ...MOVED].sort(),
    );
  });
});

describe('indexer: sync flags a changed record with the fences of the index it writes', function () {
  this.timeout(180_000);
  const client = testEsClient();
  const alias = uniqueName('idx-flags-sync');
  const EVERY_ROW_S = 100 * 365 * 24 * 3600;
  let db: TestDatabase;

  const upsert = (record: PpaRecord) =>
    db.query('SELECT ppa_upsert_record($1::jsonb)', [JSON.stringify(record)]);

  before(async () => {
    db = await createTestDatabase();
    for (const record of flagBoundaryRecords()) await upsert(record);
    await reindex({ client, alias, source: db.url });
  });
  after(async () => {
    await deleteIndices(client, alias);
    await db?.drop();
    await client.close();
  });

  it('raises tariff_outlier on an edited rate above the stored fence; the fences stay as the reindex left them', async () => {
    const index = (await aliasTarget(client, alias))!;
    const fencesBefore = (await readIndexMeta(client, index)).flag_fences;
    expect(fencesBefore!.groups.find((group) => group.currency === 'EUR')!.fence).to.equal(0.875);
    const since = await lastSeq(client, alias);
    // A rate of 2 is above .875 and would move the fence if it were recomputed: sync does not recompute it.
    await upsert(
      cleanRecord('flag-peer-a-0', {
        technology: 'tidal',
        contract: { signed_date: '2020-06-01', currency: 'EUR', energy_rate_per_kwh: 2 },
        updated_at: '2025-01-01T00:00:00Z',
      }),
    );
    const sync = new Sync({
      client,
      alias,
      url: db.url,
      overlapSeconds: EVERY_ROW_S,
      changeLog: new ChangeLog(client, alias),
    });
    try {
      await sync.run(() => false);
    } finally {
      await sync.close();
    }
    const edited = await documentOf(client, alias, 'flag-peer-a-0');
    expect(edited.flags).to.deep.equal(['tariff_outlier']);
    expect((await evidenceOf(client, alias, edited))[0]!.peers).to.include({
      count: 10,
      q1: 0.25,
      q3: 0.5,
      fence: 0.875,
    });
    expect((await readIndexMeta(client, index)).flag_fences).to.deep.equal(fencesBefore);
    const events = await eventsAfter(client, alias, since);
    expect(events.map(({ reason, slug }) => `${reason} ${slug}`)).to.deep.equal(['updated flag-peer-a-0']);
  });
});
