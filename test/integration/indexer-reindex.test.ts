// Acceptance tests of reindex / rollback / status against the real Elasticsearch (programmatic API).
import { contractMeta, INDEX_CONTRACT_VERSION, RELEASE } from '../../indexContract/contract.js';
import { DEFAULT_GREEN_TIMEOUT_MS } from '../../indexer/reindex/checkIndex.js';
import type { Client } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { appendFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aliasTarget, dataIndices } from '../../indexer/elasticsearch/aliases.js';
import {
  BulkRejectedError,
  EmptySourceError,
  LockedError,
  SourceChangedError,
} from '../../indexer/errors.js';
import { InvalidSourceError } from '../../indexer/sources/validateSource.js';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { parseIndexBuiltAt } from '../../indexContract/indexName.js';
import { CONTENT_HASH_VERSION } from '../../indexContract/contentHash.js';
import { ensureLockIndex, LOCK_INDEX, lockLocation } from '../../indexer/elasticsearch/lock.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { reindex } from '../../indexer/reindex/reindex.js';
import { rollback } from '../../indexer/reindex/rollback.js';
import { aliasStatus } from '../../indexer/reindex/status.js';
import { indexSample, SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

const sample = readFileSync(SAMPLE_PATH, 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => JSON.parse(line) as PpaRecord);
const publishedSlugs = sample
  .filter((record) => record.published)
  .map((record) => record.slug)
  .sort();

async function slugsIn(client: Client, index: string): Promise<string[]> {
  const response = await client.search<{ slug: string }>({
    index,
    size: 10_000,
    _source: ['slug'],
    query: { match_all: {} },
  });
  return response.hits.hits.map((hit) => hit._source!.slug).sort();
}

describe('indexer: reindex against Elasticsearch', function () {
  this.timeout(120_000);
  const client = testEsClient();
  let alias: string;
  let workDir: string;

  beforeEach(async () => {
    alias = uniqueName('idx-reindex');
    workDir = await mkdtemp(join(tmpdir(), 'indexer-test-'));
  });
  afterEach(async () => {
    await deleteIndices(client, alias);
    await rm(workDir, { recursive: true, force: true });
  });
  after(() => client.close());

  it('makes the alias serve exactly the published records of the sample, inactive ones with active:false', async () => {
    const summary = await indexSample(client, alias);
    expect(summary.read).to.equal(sample.length);
    expect(summary.unpublished).to.equal(sample.length - publishedSlugs.length);
    expect(summary.indexed).to.equal(publishedSlugs.length);
    expect(await aliasTarget(client, alias)).to.equal(summary.index);
    expect(await slugsIn(client, alias)).to.deep.equal(publishedSlugs);

    const inactive = sample.find((record) => record.published && !record.active)!;
    const stored = await client.get<{ active: boolean; name_folded: string }>({
      index: alias,
      id: inactive.slug,
    });
    expect(stored._source?.active).to.equal(false);
    const unpublished = sample.find((record) => !record.published)!;
    expect(await client.exists({ index: alias, id: unpublished.slug })).to.equal(false);
  });

  it('names the index <alias>-<UTC timestamp> and records _meta built_at, records, the contract and the hash version', async () => {
    const before = Date.now();
    const summary = await indexSample(client, alias);
    const builtAt = parseIndexBuiltAt(summary.index!);
    expect(summary.index).to.match(new RegExp(`^${alias}-\\d{8}t\\d{9}z$`));
    expect(builtAt!.getTime()).to.be.within(before, Date.now());
    const mapping = await client.indices.getMapping({ index: summary.index! });
    const { flag_fences: fences, ...meta } = mapping[summary.index!]!.mappings._meta as Record<
      string,
      unknown
    > & {
      flag_fences: { computed_at: string; methodology_version: number; groups: unknown[] };
    };
    expect(meta).to.deep.equal({
      built_at: builtAt!.toISOString(),
      records: publishedSlugs.length,
      content_hash_version: CONTENT_HASH_VERSION,
      ...contractMeta(),
    });
    // The red flags' peer fences, computed at the build (test/integration/indexer-flags.test.ts checks them).
    expect(fences.computed_at).to.equal(builtAt!.toISOString());
    expect(fences.methodology_version).to.equal(1);
    expect(fences.groups.length).to.be.greaterThan(5);
    expect(contractMeta()).to.deep.equal({
      contract_version: INDEX_CONTRACT_VERSION,
      contract_compatible_from: 1,
      release: RELEASE,
    });
  });

  it('second reindex moves the alias to a new index and keeps the previous; rollback moves it back', async () => {
    const first = await indexSample(client, alias);
    const second = await indexSample(client, alias);
    expect(second.index).to.not.equal(first.index);
    expect(second.previousIndex).to.equal(first.index);
    expect(await aliasTarget(client, alias)).to.equal(second.index);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([
      second.index,
      first.index,
    ]);

    const result = await rollback(client, alias);
    // The same source twice: nothing changed for a client, and the change log says so.
    expect(second.changes).to.deep.equal({
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: publishedSlugs.length,
    });
    expect(result).to.deep.equal({
      alias,
      from: second.index,
      to: first.index,
      changes: { added: 0, updated: 0, removed: 0, unchanged: publishedSlugs.length },
    });
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect(await slugsIn(client, alias)).to.deep.equal(publishedSlugs);
  });

  it('--keep 2 deletes the oldest index; the rollback target survives retention after a rollback', async () => {
    const first = await indexSample(client, alias);
    const second = await indexSample(client, alias);
    const third = await indexSample(client, alias, SAMPLE_PATH);
    expect(third.deletedIndices).to.deep.equal([first.index]);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([
      third.index,
      second.index,
    ]);

    await rollback(client, alias); // live: second; third is newer but was rolled away from
    const fourth = await reindex({ client, alias, source: SAMPLE_PATH, keep: 2 });
    expect(fourth.previousIndex).to.equal(second.index);
    expect(fourth.deletedIndices).to.deep.equal([third.index]);
  });

  it('never lets retention touch the lock index or indices outside <alias>-<timestamp>', async () => {
    const bystander = `${alias}-manual-copy`;
    await client.indices.create({ index: bystander });
    await indexSample(client, alias);
    await indexSample(client, alias);
    await reindex({ client, alias, source: SAMPLE_PATH, keep: 1 });
    expect(await client.indices.exists({ index: bystander })).to.equal(true);
    expect(await client.indices.exists({ index: LOCK_INDEX })).to.equal(true);
    expect(await client.exists(lockLocation(alias)), 'no lock left behind').to.equal(false);
    expect(await dataIndices(client, alias)).to.have.length(1);
  });

  it('a source with an invalid record changes nothing and names line, slug and field', async () => {
    const first = await indexSample(client, alias);
    const lines = readFileSync(SAMPLE_PATH, 'utf8').trimEnd().split('\n');
    const broken = JSON.parse(lines[6]!) as Record<string, unknown>;
    broken.capacity_mw = -5;
    lines[6] = JSON.stringify(broken);
    const source = join(workDir, 'broken.ndjson');
    await writeFile(source, `${lines.join('\n')}\n`);

    const error = await reindex({ client, alias, source }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).to.be.instanceOf(InvalidSourceError);
    expect((error as Error).message).to.include(
      `line 7 (slug "${broken.slug as string}"): capacity_mw must be >= 0`,
    );
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([first.index]);
  });

  it('--skip-invalid indexes the valid records and lists the invalid ones (including duplicates)', async () => {
    const lines = readFileSync(SAMPLE_PATH, 'utf8').trimEnd().split('\n').slice(0, 20);
    const published = lines.map((line) => JSON.parse(line) as PpaRecord).filter((record) => record.published);
    const source = join(workDir, 'dupes.ndjson');
    await writeFile(source, [...lines, lines[0], '{oops', ''].join('\n'));
    const summary = await reindex({ client, alias, source, skipInvalid: true });
    expect(summary.invalid).to.equal(2);
    expect(summary.invalidRecords.map((record) => [record.line, record.problems[0]!.field])).to.deep.equal([
      [21, 'slug'],
      [22, '(line)'],
    ]);
    expect(summary.indexed).to.equal(published.length);
    expect((await client.count({ index: alias })).count).to.equal(published.length);
  });

  it('reads a JSON array source, numbering invalid elements from 0', async () => {
    const records = [...generateRecords({ seed: 11, count: 40 })];
    (records[5] as unknown as Record<string, unknown>).technology = 'Solar PV';
    const source = join(workDir, 'records.json');
    await writeFile(source, JSON.stringify(records, null, 2));
    const error = await reindex({ client, alias, source }).catch((caught: unknown) => caught);
    expect((error as Error).message).to.include(
      `element 5 (slug "${records[5]!.slug}"): technology must match pattern`,
    );

    records[5]!.technology = 'solar_pv';
    await writeFile(source, JSON.stringify(records));
    const summary = await reindex({ client, alias, source });
    expect(summary.format).to.equal('json-array');
    expect(summary.indexed).to.equal(records.filter((record) => record.published).length);
  });

  it('a document Elasticsearch refuses mid-run fails the run; alias, old docs and indices stay as they were', async () => {
    const first = await indexSample(client, alias);
    let sent = 0;
    const error = await reindex({
      client,
      alias,
      source: SAMPLE_PATH,
      batchSize: 50,
      // The mapping is dynamic:strict, so an unknown field is refused only at index time, after 300 good docs.
      transformDocument: (document) => (++sent === 300 ? { ...document, not_in_mapping: true } : document),
    }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(BulkRejectedError);
    expect((error as Error).message).to.match(/strict_dynamic_mapping_exception/);
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect(await slugsIn(client, alias)).to.deep.equal(publishedSlugs);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([first.index]);
    expect((await aliasStatus(client, alias)).lock).to.equal(null);
  });

  it('goes live flushed and green; a generation that cannot turn green in time fails, alias and docs stay', async () => {
    const first = await indexSample(client, alias);
    const stats = await client.indices.stats({ index: first.index!, level: 'shards' });
    // Flushed: the last Lucene commit on disk holds every document, none is only in the (async) translog.
    const [primary] = stats.indices?.[first.index!]?.shards?.['0'] ?? [];
    expect(primary?.commit?.num_docs).to.equal(publishedSlugs.length);
    const settings = await client.indices.getSettings({ index: first.index! });
    const live = settings[first.index!]?.settings?.index;
    expect(live?.translog?.durability).to.equal('request');
    expect(live?.number_of_replicas).to.equal('0'); // one data node: a replica could never be assigned

    // A replica on a one-node cluster never gets assigned: the run must fail within its bound.
    const started = Date.now();
    const error = await reindex({
      client,
      alias,
      source: SAMPLE_PATH,
      replicas: 1,
      greenTimeoutMs: 1000,
    }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(
      /did not turn green within 1s with 1 replica\(s\) \(status yellow/,
    );
    // It gave up at the green timeout it was given, not the default's five minutes.
    expect(Date.now() - started).to.be.below(DEFAULT_GREEN_TIMEOUT_MS);
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect(await slugsIn(client, alias)).to.deep.equal(publishedSlugs);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([first.index]);
  });

  it('a source rewritten during the load fails the run before the swap; alias and old docs stay', async () => {
    const first = await indexSample(client, alias);
    const source = join(workDir, 'changing.ndjson');
    await writeFile(source, readFileSync(SAMPLE_PATH));
    let sent = 0;
    const error = await reindex({
      client,
      alias,
      source,
      batchSize: 50,
      // Pass 2 no longer re-validates records; the file's size, mtime and inode are checked before going live.
      transformDocument: (document) => {
        if (++sent === 100) appendFileSync(source, '\n'); // a blank line: pass 2 skips it, only the check sees it
        return document;
      },
    }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(SourceChangedError);
    expect((error as Error).message).to.include(source);
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect(await slugsIn(client, alias)).to.deep.equal(publishedSlugs);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([first.index]);
  });

  it('refuses a concurrent second reindex of the same alias, and the first one completes', async () => {
    const source = join(workDir, 'big.ndjson');
    await writeFile(
      source,
      [...generateRecords({ seed: 5, count: 4000 })].map((r) => JSON.stringify(r)).join('\n'),
    );
    let second = null as Promise<unknown> | null;
    const first = reindex({
      client,
      alias,
      source,
      batchSize: 200,
      onProgress: (event) => {
        if (event.phase === 'load' && second === null) {
          second = reindex({ client, alias, source: SAMPLE_PATH }).catch((caught: unknown) => caught);
        }
      },
    });
    const firstSummary = await first;
    const secondOutcome = await second;
    expect(secondOutcome).to.be.instanceOf(LockedError);
    expect((secondOutcome as Error).message).to.match(/another reindex of alias .* is running/);
    expect(await aliasTarget(client, alias)).to.equal(firstSummary.index);
    expect(await dataIndices(client, alias)).to.have.length(1);
  });

  it('takes over a lock whose holder crashed (expired), but not a live one', async () => {
    await ensureLockIndex(client);
    const lockDocument = {
      alias,
      owner: 'crashed-run',
      acquired_at: new Date().toISOString(),
      expires_at: Date.now() + 60_000,
    };
    await client.index({ ...lockLocation(alias), document: lockDocument, refresh: true });
    const refused = await indexSample(client, alias).catch((caught: unknown) => caught);
    expect(refused).to.be.instanceOf(LockedError);
    expect((refused as Error).message).to.include('crashed-run');

    await client.index({
      ...lockLocation(alias),
      document: { ...lockDocument, expires_at: Date.now() - 1000 },
      refresh: true,
    });
    const summary = await indexSample(client, alias);
    expect(await aliasTarget(client, alias)).to.equal(summary.index);
  });

  it('status shows the alias, its index, counts and kept indices', async () => {
    const started = Date.now();
    const first = await indexSample(client, alias);
    const second = await indexSample(client, alias);
    const status = await aliasStatus(client, alias);
    expect(status.alias).to.equal(alias);
    expect(status.index).to.equal(second.index);
    expect(status.docs).to.equal(publishedSlugs.length);
    // Built during this test: no older than the test itself.
    expect(status.age_seconds).to.be.within(0, Math.ceil((Date.now() - started) / 1000));
    expect(status.kept.map((index) => [index.index, index.docs, index.live])).to.deep.equal([
      [second.index, publishedSlugs.length, true],
      [first.index, publishedSlugs.length, false],
    ]);
    expect(status.lock).to.equal(null);
  });

  it('refuses to replace the live index with an empty one (no published record in the source)', async () => {
    const first = await indexSample(client, alias);
    const source = join(workDir, 'unpublished.ndjson');
    const unpublished = sample.filter((record) => !record.published);
    await writeFile(source, unpublished.map((record) => JSON.stringify(record)).join('\n'));
    const error = await reindex({ client, alias, source }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(EmptySourceError);
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect(await dataIndices(client, alias)).to.have.length(1);
  });

  it('dry run validates and builds documents without writing anything', async () => {
    const summary = await reindex({ client, alias, source: SAMPLE_PATH, dryRun: true });
    expect(summary.indexed).to.equal(publishedSlugs.length);
    expect(summary.index).to.equal(null);
    expect(await aliasTarget(client, alias)).to.equal(null);
    expect(await client.cat.indices({ index: `${alias}*`, format: 'json' })).to.deep.equal([]);
  });
});
