// commands/sync: `ppa-indexer sync` against the fake Elasticsearch served over HTTP (ES_URL) and a relation in memory
// (every PostgresChangeReader reads it while a test runs). Checked: one run under the alias's sync lock, its summary
// as JSON on stdout, its changes logged, the lock released; --reconcile-every; another sync holding the lock; a
// source that is no postgres:// URL; --follow printing a line a run until the first SIGTERM stops it.
import { expect } from 'chai';
import { Command } from 'commander';
import { HEAD_ID, type ChangeLogHead } from '../../../../indexContract/changeLog.js';
import { addSyncCommand } from '../../../../indexer/commands/sync.js';
import { AliasLock, LOCK_INDEX } from '../../../../indexer/elasticsearch/lock.js';
import { LockedError, UsageError } from '../../../../indexer/errors.js';
import { captured, cliRun, withEnv, withoutNewSignalListeners } from '../../../support/cliRuns.js';
import { FakeRelation, serveChangesFrom } from '../../../support/fakeChangeSource.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ppaRecord } from '../../../support/ppaRecords.js';
import { freePort } from '../../../../tools/services/net.js';

const LIVE = generationName('ppas', 1);

describe('indexer/commands/sync', () => {
  let relation: FakeRelation;
  let served: ReturnType<typeof serveChangesFrom>;
  let es: FakeElasticsearch;
  let database: string;
  before(async () => (database = `postgres://indexer@127.0.0.1:${await freePort()}/ppas`));
  beforeEach(() => {
    relation = new FakeRelation();
    served = serveChangesFrom(relation);
    es = fakeElasticsearch();
    const records = ['a', 'b', 'c'].map((slug) => ppaRecord(slug));
    relation.put(...records);
    relation.now += 600_000;
    addGeneration(es, LIVE, records, { live: true, meta: { high_water_mark: relation.mark } });
  });
  afterEach(() => served.restore());

  async function sync(args: string[], during?: () => Promise<void>) {
    const http = await es.listen();
    const program = new Command().exitOverride();
    addSyncCommand(program, cliRun('error'));
    try {
      return await withEnv({ ES_URL: http.url }, () =>
        withoutNewSignalListeners(() =>
          captured(() =>
            Promise.all([
              program.parseAsync(['sync', '--alias', 'ppas', '--source', database, ...args], {
                from: 'user',
              }),
              during?.(),
            ]),
          ),
        ),
      );
    } finally {
      await http.close();
    }
  }

  const locks = () => [...(es.indices.get(LOCK_INDEX)?.documents.keys() ?? [])];

  it('runs once under the sync lock, printing its summary, logging its changes, then releasing the lock', async () => {
    relation.put(ppaRecord('d'), ppaRecord('a', { published: false }));
    let lockedDuringRun: string[] = [];
    es.intercept((call) => {
      if (call.path.endsWith('/_bulk') && lockedDuringRun.length === 0) lockedDuringRun = locks();
      return undefined;
    });
    const { stdout, error } = await sync(['--max-removed', '1']);
    expect(error).to.equal(undefined);
    const { sync: summary } = JSON.parse(stdout) as { sync: Record<string, unknown> };
    expect(summary).to.include({ index: LIVE, written: 1, deleted: 1, logged: 2, reconciled: true });
    expect(lockedDuringRun).to.include('ppas:sync');
    expect(locks()).to.deep.equal([]);
    expect((es.sources('ppas-changes').get(HEAD_ID) as { log: ChangeLogHead }).log.seq).to.equal(2);
    expect(served.closed()).to.equal(1);
  });

  it('compares slugs every n runs with --reconcile-every', async () => {
    const meta = es.indices.get(LIVE)!.mappings._meta!;
    meta.sync_runs = 1;
    const { stdout } = await sync(['--reconcile-every', '2']);
    expect(JSON.parse(stdout)).to.have.nested.property('sync.reconciled', false);
    const again = await sync(['--reconcile-every', '2']);
    expect(JSON.parse(again.stdout)).to.have.nested.property('sync.reconciled', true);
  });

  it('refuses to run while another sync holds the lock, and a source that is no postgres:// URL', async () => {
    const other = await AliasLock.acquire(es.client, 'ppas', { guards: 'syncWrites', owner: 'host-b pid 5' });
    const { error } = await sync([]);
    expect(error).to.be.instanceOf(LockedError);
    expect(String(error)).to.include('another sync of alias "ppas" is running');
    await other.release();
    const program = new Command().exitOverride();
    addSyncCommand(program, cliRun('error'));
    const wrong = await captured(() =>
      program.parseAsync(['sync', '--source', 'records.ndjson'], { from: 'user' }),
    );
    expect(wrong.error).to.be.instanceOf(UsageError);
  });

  it('follows with --follow, a line a run, until the first SIGTERM', async () => {
    const before = process.listeners('SIGTERM');
    const { stdout, error } = await sync(['--follow', '--interval', '0.01'], async () => {
      while (served.closed() === 0 && relation.snapshots < 3)
        await new Promise((resolve) => setTimeout(resolve, 5));
      const added = process.listeners('SIGTERM').filter((listener) => !before.includes(listener));
      (added[0] as (signal: string) => void)('SIGTERM');
    });
    expect(error).to.equal(undefined);
    // Two runs had ended when the third began; the third may be cut short by the signal, printing nothing.
    const lines = stdout.trimEnd().split('\n');
    expect(lines.length).to.be.at.least(2);
    for (const line of lines) expect(JSON.parse(line)).to.have.nested.property('sync.index', LIVE);
    expect(locks()).to.deep.equal([]);
  });
});
