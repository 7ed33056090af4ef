// The reindex lock against the real Elasticsearch: heartbeat keeps it, release frees it, takeover is detected.
import { expect } from 'chai';
import { LockedError } from '../../indexer/errors.js';
import { lockIndexName, ReindexLock } from '../../indexer/lock.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('indexer: reindex lock', function () {
  this.timeout(30_000);
  const client = testEsClient();
  let alias: string;

  beforeEach(() => (alias = uniqueName('idx-lock')));
  afterEach(() => deleteIndices(client, alias));
  after(() => client.close());

  it('stays held past its TTL while the heartbeat runs, and is free again after release', async () => {
    const lock = await ReindexLock.acquire(client, alias, { ttlMs: 1500, owner: 'first' });
    await sleep(2500); // longer than the TTL: only the heartbeat keeps it alive
    const refused = await ReindexLock.acquire(client, alias, { owner: 'second' }).catch(
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(LockedError);
    expect((refused as Error).message).to.include('lock held by first');
    await lock.release();
    const second = await ReindexLock.acquire(client, alias, { owner: 'second' });
    await second.release();
  });

  it('a run whose expired lock was taken over notices before it could swap the alias', async () => {
    const lock = await ReindexLock.acquire(client, alias, { ttlMs: 60_000, owner: 'slow run' });
    // Another run took the lock over (as it may once the expiry has passed): the document changed under us.
    await client.index({
      index: lockIndexName(alias),
      id: 'reindex',
      document: { owner: 'new run', acquired_at: new Date().toISOString(), expires_at: Date.now() + 60_000 },
    });
    const failure = await lock.extend().catch((error: unknown) => error);
    expect((failure as { meta?: { statusCode?: number } }).meta?.statusCode).to.equal(409);
    expect(() => lock.assertHeld()).to.throw(/lost the reindex lock/);
    await lock.release(); // must not delete the new run's lock
    const holder = await client.get<{ owner: string }>({ index: lockIndexName(alias), id: 'reindex' });
    expect(holder._source?.owner).to.equal('new run');
  });
});
