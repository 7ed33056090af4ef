// reindex/reindex: the phases of a reindex in order, over the fake Elasticsearch (test/support/fakeElasticsearch.ts)
// and sources in memory (an NDJSON stream, as `--source -` gives it; the in-memory record source for the exported
// phases). Checked: a run validates everything before it writes anything, builds `<alias>-<timestamp>`, loads every
// published document, checks the count, swaps the alias only after the checks, logs the change, keeps --keep
// generations; a failed phase (a refused document, a count that differs, a source changed, a cluster not green, the
// removal guard, an abort, another run's lock) leaves the alias where it was and deletes the half-built index;
// invalid and empty sources, --skip-invalid, --dry-run and a bad --keep.
import { expect } from 'chai';
import { appendFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEAD_ID, type ChangeLogHead } from '../../../../indexContract/changeLog.js';
import { CONTENT_HASH_VERSION } from '../../../../indexContract/contentHash.js';
import { isDataIndexOf } from '../../../../indexContract/indexName.js';
import type { PpaRecord } from '../../../../indexContract/record.js';
import { MassRemovalError } from '../../../../indexer/changes/removalGuard.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { AliasLock, LOCK_INDEX } from '../../../../indexer/elasticsearch/lock.js';
import {
  BulkRejectedError,
  EmptySourceError,
  InterruptedError,
  LockedError,
  SourceChangedError,
  UsageError,
} from '../../../../indexer/errors.js';
import {
  publishedDocuments,
  reindex,
  validatePhase,
  type ReindexOptions,
} from '../../../../indexer/reindex/reindex.js';
import { InvalidSourceError } from '../../../../indexer/sources/validateSource.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { FakeRecordSource } from '../../../support/fakeRecordSource.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ndjsonStream, ndjsonText, ppaRecord } from '../../../support/ppaRecords.js';
import { rejectionOf } from '../../../support/rejection.js';

const OLD = generationName('ppas', 1);
const slugs = (count: number, prefix = 'ppa') =>
  Array.from({ length: count }, (_, n) => `${prefix}-${String(n).padStart(3, '0')}`);

function run(es: FakeElasticsearch, records: readonly unknown[], options: Partial<ReindexOptions> = {}) {
  return reindex({ client: es.client, alias: 'ppas', source: ndjsonStream(records), ...options });
}

/** The data indices of `ppas` now. */
const generations = (es: FakeElasticsearch) =>
  [...es.indices.keys()].filter((name) => isDataIndexOf('ppas', name));

/** The alias is where it was, the half-built index is gone, and no lock is left behind. */
function expectUntouched(es: FakeElasticsearch, live: string | null): void {
  expect(es.aliasTarget('ppas'), 'the alias').to.equal(live);
  expect(generations(es), 'the generations').to.deep.equal(live ? [live] : []);
  expect([...(es.indices.get(LOCK_INDEX)?.documents.keys() ?? [])], 'locks held').to.deep.equal([]);
}

describe('indexer/reindex/reindex', () => {
  it('builds the first generation: every published document, live settings, the alias on it, the log begun', async () => {
    const es = fakeElasticsearch();
    const records = [ppaRecord('a'), ppaRecord('b', { published: false }), ppaRecord('c', { active: false })];
    const started = Date.now();
    const summary = await run(es, records);
    expect(summary).to.include({ alias: 'ppas', previousIndex: null, read: 3, published: 2, unpublished: 1 });
    expect(summary).to.include({ inactive: 1, indexed: 2, dryRun: false, changes: null });
    const index = summary.index!;
    expect(isDataIndexOf('ppas', index)).to.equal(true);
    expect(es.aliasTarget('ppas')).to.equal(index);
    expect(Object.fromEntries(es.sources(index))).to.deep.equal({
      a: buildDocument(records[0]!),
      c: buildDocument(records[2]!),
    });
    const built = es.indices.get(index)!;
    expect(built.mappings._meta).to.include({ records: 2, content_hash_version: CONTENT_HASH_VERSION });
    expect(Date.parse(built.mappings._meta!.built_at as string)).to.be.within(started, Date.now());
    expect(built.settings).to.include({ refresh_interval: '1s', 'translog.durability': 'request' });
    expect(built.flushes).to.equal(2);
    expect((es.sources('ppas-changes').get(HEAD_ID) as { log: ChangeLogHead }).log.seq).to.equal(0);
    expectUntouched(es, index);
  });

  it('runs the phases in order: lock, create, load, verify, green, swap, then prune and unlock', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, OLD, ['a'], { live: true });
    const { index } = await run(es, [ppaRecord('a'), ppaRecord('b')]);
    const steps = es.requests().map((request) => {
      const [method, path] = request.split(' ') as [string, string];
      if (path === `/${LOCK_INDEX}/_doc/ppas`) return `lock ${method}`;
      return (
        {
          [`PUT /${index}`]: 'create',
          [`POST /${index}/_bulk`]: 'load',
          [`PUT /${index}/_settings`]: 'live settings',
          [`POST /${index}/_count`]: 'count',
          [`GET /${index}/_count`]: 'count',
          [`GET /_cluster/health/${index}`]: 'health',
          ['POST /_aliases']: 'swap',
          [`GET /_cat/indices/ppas-*`]: 'list generations',
        } as Record<string, string>
      )[request];
    });
    const order = steps.filter((step) => step !== undefined);
    expect(order.filter((step, i) => step !== order[i - 1])).to.deep.equal([
      'lock PUT', // acquire
      'create',
      'load',
      'live settings',
      'count',
      'health',
      'lock PUT', // extended right before the swap
      'swap',
      'list generations', // retention
      'lock DELETE',
    ]);
  });

  it('logs what the new generation changes, and keeps --keep generations, the one it left among them', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, OLD, ['a', 'b', 'gone'], { live: true });
    const second = await run(es, [ppaRecord('a'), ppaRecord('b', { capacity_mw: 1 }), ppaRecord('new')], {
      maxRemoved: { count: 1 },
    });
    expect(second).to.include({ previousIndex: OLD });
    expect(second.changes).to.deep.equal({ added: 1, updated: 1, removed: 1, unchanged: 1 });
    expect(second.deletedIndices).to.deep.equal([]);
    const log = es.sources('ppas-changes');
    expect((log.get(HEAD_ID) as { log: ChangeLogHead }).log).to.include({ seq: 3, pending_to: 3 });
    expect([1, 2, 3].map((seq) => (log.get(String(seq)) as { slug: string }).slug)).to.deep.equal([
      'b',
      'gone',
      'new',
    ]);
    const third = await run(es, [ppaRecord('a'), ppaRecord('b'), ppaRecord('new')], { keep: 2 });
    expect(third.deletedIndices).to.deep.equal([OLD]);
    expect(generations(es).sort()).to.deep.equal([second.index, third.index].sort());
    expect(es.aliasTarget('ppas')).to.equal(third.index);
  });

  describe('a failed phase leaves the alias where it was and deletes the half-built index', () => {
    let es: FakeElasticsearch;
    beforeEach(() => {
      es = fakeElasticsearch();
      addGeneration(es, OLD, slugs(20), { live: true });
    });
    const records = () => slugs(20).map((slug) => ppaRecord(slug));

    it('a document Elasticsearch refuses', async () => {
      es.refuseItems((_index, id) =>
        id === 'ppa-007' ? { status: 400, type: 'mapper_parsing_exception', reason: 'bad value' } : undefined,
      );
      const error = await rejectionOf(run(es, records(), { batchSize: 5 }));
      expect(error).to.be.instanceOf(BulkRejectedError);
      expect(String(error)).to.include('Elasticsearch refused document ppa-007 (status 400)');
      expectUntouched(es, OLD);
    });

    it('a count that differs from the published records', async () => {
      es.intercept((call) => (call.path.endsWith('/_count') ? { body: { count: 19 } } : undefined));
      const error = await rejectionOf(run(es, records()));
      expect(String(error)).to.match(
        /index check failed: ppas-\S+ holds 19 documents \(20 sent\), expected 20/,
      );
      expectUntouched(es, OLD);
    });

    it('a source written to between validation and the check', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'indexer-reindex-'));
      try {
        const path = join(dir, 'records.ndjson');
        await writeFile(path, ndjsonText(records()));
        // Someone appends to the file while the new index is created.
        es.intercept((call) => {
          if (call.method === 'PUT' && isDataIndexOf('ppas', call.path.slice(1)))
            appendFileSync(path, ndjsonText([ppaRecord('late')]));
          return undefined;
        });
        const error = await rejectionOf(reindex({ client: es.client, alias: 'ppas', source: path }));
        expect(error).to.be.instanceOf(SourceChangedError);
        expectUntouched(es, OLD);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('a cluster that does not turn green in time', async () => {
      es.health = { ...es.health, status: 'yellow', unassigned_shards: 1 };
      const error = await rejectionOf(run(es, records(), { greenTimeoutMs: 1000, replicas: 1 }));
      expect(String(error)).to.include(
        'did not turn green within 1s with 1 replica(s) (status yellow, 1 unassigned',
      );
      expectUntouched(es, OLD);
    });

    it('the removal guard, before the swap: nothing is logged', async () => {
      const error = await rejectionOf(run(es, records().slice(0, 18)));
      expect(error).to.be.instanceOf(MassRemovalError);
      expect(String(error)).to.include(
        'would remove 2 of the 20 live PPAs (10%), more than --max-removed 5%',
      );
      expectUntouched(es, OLD);
      expect((es.sources('ppas-changes').get(HEAD_ID) as { log: ChangeLogHead }).log).to.include({
        seq: 0,
        pending_to: 0,
      });
      expect(es.sources('ppas-changes').size).to.equal(1);
    });

    it('an abort while the index is checked', async () => {
      const controller = new AbortController();
      es.intercept((call) => {
        if (call.path.endsWith('/_flush')) controller.abort('SIGTERM');
        return undefined;
      });
      const error = await rejectionOf(run(es, records(), { signal: controller.signal }));
      expect(error).to.be.instanceOf(InterruptedError);
      expect(String(error)).to.include('interrupted (SIGTERM); the alias was left where it was');
      expectUntouched(es, OLD);
    });

    it('another run holding the lock: nothing is built', async () => {
      const other = await AliasLock.acquire(es.client, 'ppas', { owner: 'host-b pid 9' });
      const error = await rejectionOf(run(es, records()));
      expect(error).to.be.instanceOf(LockedError);
      expect(generations(es)).to.deep.equal([OLD]);
      await other.release();
      expectUntouched(es, OLD);
    });
  });

  it('refuses invalid records before writing anything, and skips them with --skip-invalid', async () => {
    const es = fakeElasticsearch();
    const records: unknown[] = [ppaRecord('a'), ppaRecord('b', { capacity_mw: -5 }), ppaRecord('c')];
    const error = await rejectionOf(run(es, records));
    expect(error).to.be.instanceOf(InvalidSourceError);
    expect(String(error)).to.include('line 2 (slug "b"): capacity_mw');
    expect(es.calls).to.deep.equal([]);
    const summary = await run(es, records, { skipInvalid: true });
    expect(summary).to.include({ read: 3, invalid: 1, indexed: 2 });
    expect([...es.sources(summary.index!).keys()].sort()).to.deep.equal(['a', 'c']);
    expect(summary.invalidRecords.map((record) => record.slug)).to.deep.equal(['b']);
  });

  it('refuses a source with no published record, writing nothing', async () => {
    const es = fakeElasticsearch();
    const error = await rejectionOf(run(es, [ppaRecord('a', { published: false })]));
    expect(error).to.be.instanceOf(EmptySourceError);
    expect(String(error)).to.include('no valid published record (1 read)');
    expect(es.calls).to.deep.equal([]);
  });

  it('builds every document on --dry-run without a word to Elasticsearch, and refuses a bad --keep', async () => {
    const es = fakeElasticsearch();
    const summary = await run(es, [ppaRecord('a'), ppaRecord('b')], { dryRun: true });
    expect(summary).to.include({ dryRun: true, index: null, indexed: 2 });
    expect(es.calls).to.deep.equal([]);
    for (const keep of [0, 1.5])
      expect(await rejectionOf(run(es, [ppaRecord('a')], { keep })), String(keep)).to.be.instanceOf(
        UsageError,
      );
  });

  describe('the exported phases, over a record source in memory', () => {
    it('validatePhase reports progress and the counts, and refuses what a reindex refuses', async () => {
      const events: unknown[] = [];
      const source = new FakeRecordSource([ppaRecord('a'), ppaRecord('b', { published: false })]);
      const report = await validatePhase(source, {
        client: fakeElasticsearch().client,
        alias: 'ppas',
        source: '-',
        onProgress: (event) => events.push(event),
      });
      expect(report).to.include({ read: 2, published: 1, unpublished: 1 });
      expect(events.at(-1)).to.deep.equal({ phase: 'validate', records: 2, bytes: 2, totalBytes: 2 });
      const empty = new FakeRecordSource([ppaRecord('a', { published: false })]);
      const options = { client: fakeElasticsearch().client, alias: 'ppas', source: '-' };
      expect(await rejectionOf(validatePhase(empty, options))).to.be.instanceOf(EmptySourceError);
    });

    it('publishedDocuments builds the published records in source order, noting the unpublished', async () => {
      const records: PpaRecord[] = [
        ppaRecord('z'),
        ppaRecord('hidden', { published: false }),
        ppaRecord('a'),
      ];
      const source = new FakeRecordSource([records[0], { slug: 'broken' }, records[1], records[2]]);
      const report = await validatePhase(source, {
        client: fakeElasticsearch().client,
        alias: 'ppas',
        source: '-',
        skipInvalid: true,
      });
      const unpublished = new Set<string>();
      const built: string[] = [];
      const options = { transformDocument: (document: object) => ({ ...document, extra: true }) };
      for await (const { id, body, document } of publishedDocuments(source, report, options, unpublished)) {
        built.push(id);
        expect(body).to.deep.equal({ ...document, extra: true });
      }
      expect(built).to.deep.equal(['z', 'a']);
      expect([...unpublished]).to.deep.equal(['hidden']);
    });

    it('publishedDocuments refuses a second pass that finds a line the first one parsed', async () => {
      const source = new FakeRecordSource([ppaRecord('a')]);
      const report = await validatePhase(source, {
        client: fakeElasticsearch().client,
        alias: 'ppas',
        source: '-',
      });
      const changed = Object.assign(Object.create(source) as FakeRecordSource, {
        items: async function* () {
          yield { line: 1, unparsed: true as const, slug: 'a', problems: [] };
        },
      });
      const documents = publishedDocuments(changed, report, {});
      expect(await rejectionOf(documents.next())).to.be.instanceOf(SourceChangedError);
    });
  });
});
