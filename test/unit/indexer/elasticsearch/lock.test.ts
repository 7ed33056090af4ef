// elasticsearch/lock: one holder at a time of one thing of an alias, as a document of the shared lock index.
// Checked over the fake Elasticsearch: the lock index made once; the document's id and expiry on the cluster's
// clock; a second holder refused with who holds it and for how long; locks of different guards apart; an expired
// lock, or one a dead process of this host left, taken over; the old holder then told it lost it; a race for an
// expired lock lost cleanly; release leaving another's lock alone.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import {
  AliasLock,
  clusterNow,
  ensureLockIndex,
  LOCK_INDEX,
  lockLocation,
  LockLostError,
  lockName,
  type LockDocument,
} from '../../../../indexer/elasticsearch/lock.js';
import { LockedError } from '../../../../indexer/errors.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { rejectionOf } from '../../../support/rejection.js';

const T0 = Date.UTC(2026, 0, 1);

/** A fake cluster whose clock reads `clock.now` (this machine's clock is never read for expiries). */
function cluster(): FakeElasticsearch & { clock: { now: number } } {
  const es = fakeElasticsearch();
  const clock = { now: T0 };
  es.now = () => clock.now;
  return Object.assign(es, { clock });
}

function lockDocument(es: FakeElasticsearch, id: string): LockDocument | undefined {
  return es.sources(LOCK_INDEX).get(id) as LockDocument | undefined;
}

describe('indexer/elasticsearch/lock', () => {
  const held: AliasLock[] = [];
  afterEach(async () => {
    for (const lock of held.splice(0)) await lock.release().catch(() => undefined);
  });
  const acquire = async (...args: Parameters<typeof AliasLock.acquire>) => {
    const lock = await AliasLock.acquire(...args);
    held.push(lock);
    return lock;
  };

  it('names each guarded thing’s lock after the alias, in the one lock index', () => {
    expect(lockName('ppas')).to.equal('ppas');
    expect(lockName('ppas', 'syncWrites')).to.equal('ppas:sync');
    expect(lockName('ppas', 'changeLog')).to.equal('ppas:changes');
    expect(lockLocation('ppas:sync')).to.deep.equal({ index: 'ppa-indexer-locks', id: 'ppas:sync' });
  });

  it('reads the time from the cluster, and fails when the cluster does not report it', async () => {
    const es = cluster();
    expect(await clusterNow(es.client)).to.equal(T0);
    es.intercept((call) => (call.path.startsWith('/_nodes') ? { body: { nodes: {} } } : undefined));
    expect(String(await rejectionOf(clusterNow(es.client)))).to.include('did not report its time');
  });

  it('creates the lock index once, and takes the lock with an expiry on the cluster’s clock', async () => {
    const es = cluster();
    await acquire(es.client, 'ppas', { ttlMs: 30_000, owner: 'host-a pid 1' });
    await acquire(es.client, 'eu', { ttlMs: 30_000 });
    expect(es.requests().filter((request) => request === `PUT /${LOCK_INDEX}`)).to.have.length(1);
    expect(es.indices.get(LOCK_INDEX)!.settings).to.include({
      number_of_shards: 1,
      auto_expand_replicas: '0-1',
    });
    expect(lockDocument(es, 'ppas')).to.deep.equal({
      alias: 'ppas',
      owner: 'host-a pid 1',
      acquired_at: new Date(T0).toISOString(),
      expires_at: T0 + 30_000,
    });
    expect(lockDocument(es, 'eu')?.owner).to.equal(`${hostname()} pid ${process.pid}`);
  });

  it('refuses a second holder, naming the holder and when the lock expires; other guards are apart', async () => {
    const es = cluster();
    await acquire(es.client, 'ppas', { ttlMs: 60_000, owner: 'host-a pid 1' });
    es.clock.now += 15_500;
    const refused = await rejectionOf(AliasLock.acquire(es.client, 'ppas', { owner: 'host-b pid 2' }));
    expect(refused).to.be.instanceOf(LockedError);
    expect(String(refused)).to.include(
      'another reindex of alias "ppas" is running (lock held by host-a pid 1 since 2026-01-01T00:00:00.000Z; ' +
        'it expires in 45s unless that run keeps it alive)',
    );
    await acquire(es.client, 'ppas', { guards: 'syncWrites' });
    const sync = await rejectionOf(AliasLock.acquire(es.client, 'ppas', { guards: 'syncWrites' }));
    expect(String(sync)).to.include('another sync of alias "ppas"');
  });

  it('takes over an expired lock; the old holder then finds it lost, and its release leaves the new one', async () => {
    const es = cluster();
    const first = await acquire(es.client, 'ppas', { ttlMs: 10_000, owner: 'host-a pid 1' });
    es.clock.now += 10_001;
    await acquire(es.client, 'ppas', { ttlMs: 10_000, owner: 'host-b pid 2' });
    expect(lockDocument(es, 'ppas')).to.include({ owner: 'host-b pid 2', expires_at: es.clock.now + 10_000 });
    expect(await rejectionOf(first.extend())).to.have.nested.property('meta.statusCode', 409);
    expect(() => first.assertHeld()).to.throw(LockLostError, /lost the reindex lock/);
    await first.release();
    expect(lockDocument(es, 'ppas')?.owner).to.equal('host-b pid 2');
  });

  it('extends the expiry on the cluster’s clock while held, and deletes the document on release', async () => {
    const es = cluster();
    const lock = await AliasLock.acquire(es.client, 'ppas', { ttlMs: 10_000 });
    es.clock.now += 4000;
    await Promise.all([lock.extend(), lock.extend()]); // one write at a time: no conflict with itself
    expect(lockDocument(es, 'ppas')?.expires_at).to.equal(T0 + 14_000);
    lock.assertHeld();
    await lock.release();
    expect(lockDocument(es, 'ppas')).to.equal(undefined);
  });

  it('takes over at once a lock a dead process of this host left, before it expires', async () => {
    const es = cluster();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    await acquire(es.client, 'ppas', { owner: `${hostname()} pid ${dead}` });
    await acquire(es.client, 'ppas');
    expect(lockDocument(es, 'ppas')?.owner).to.equal(`${hostname()} pid ${process.pid}`);
    // This process's own lock is never "dead": a second run in it is refused.
    expect(await rejectionOf(AliasLock.acquire(es.client, 'ppas'))).to.be.instanceOf(LockedError);
  });

  it('loses a race for an expired lock with a LockedError, not a version conflict', async () => {
    const es = cluster();
    await acquire(es.client, 'ppas', { ttlMs: 1000, owner: 'host-a pid 1' });
    es.clock.now += 2000;
    // Another run takes it between our read and our write: our compare-and-set write is refused.
    es.intercept((call) =>
      call.method === 'PUT' && call.querystring.includes('if_seq_no')
        ? { status: 409, body: { error: { type: 'version_conflict_engine_exception' }, status: 409 } }
        : undefined,
    );
    const refused = await rejectionOf(AliasLock.acquire(es.client, 'ppas'));
    expect(refused).to.be.instanceOf(LockedError);
    expect(String(refused)).to.include('just took the expired lock');
  });

  it('finds the lock index another run created meanwhile, and fails on any other refusal', async () => {
    const es = cluster();
    es.addIndex(LOCK_INDEX);
    const hidden = es.intercept((call) => (call.method === 'HEAD' ? { status: 404 } : undefined));
    await ensureLockIndex(es.client); // its create is refused: already exists, which is fine
    hidden();
    es.indices.delete(LOCK_INDEX);
    es.intercept((call) =>
      call.method === 'PUT'
        ? { status: 403, body: { error: { type: 'security_exception' }, status: 403 } }
        : undefined,
    );
    expect(await rejectionOf(ensureLockIndex(es.client))).to.have.nested.property('meta.statusCode', 403);
  });
});
