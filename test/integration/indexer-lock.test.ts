// The reindex lock against the real Elasticsearch: heartbeat keeps it, release frees it, takeover is detected.
import { expect } from 'chai';
import { LockedError } from '../../indexer/errors.js';
import { aliasStatus, describeStatus } from '../../indexer/reindex/status.js';
import { clusterNow, LOCK_INDEX, lockLocation, AliasLock } from '../../indexer/elasticsearch/lock.js';
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
    const lock = await AliasLock.acquire(client, alias, { ttlMs: 1500, owner: 'first' });
    await sleep(2500); // longer than the TTL: only the heartbeat keeps it alive
    const refused = await AliasLock.acquire(client, alias, { owner: 'second' }).catch(
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(LockedError);
    expect((refused as Error).message).to.include('lock held by first');
    await lock.release();
    const second = await AliasLock.acquire(client, alias, { owner: 'second' });
    await second.release();
  });

  it('a run whose expired lock was taken over notices before it could swap the alias', async () => {
    const lock = await AliasLock.acquire(client, alias, { ttlMs: 60_000, owner: 'slow run' });
    // Another run took the lock over (as it may once the expiry has passed): the document changed under us.
    await client.index({
      ...lockLocation(alias),
      document: {
        alias,
        owner: 'new run',
        acquired_at: new Date().toISOString(),
        expires_at: Date.now() + 60_000,
      },
    });
    const failure = await lock.extend().catch((error: unknown) => error);
    expect((failure as { meta?: { statusCode?: number } }).meta?.statusCode).to.equal(409);
    expect(() => lock.assertHeld()).to.throw(/lost the reindex lock/);
    await lock.release(); // must not delete the new run's lock
    const holder = await client.get<{ owner: string }>(lockLocation(alias));
    expect(holder._source?.owner).to.equal('new run');
  });

  it('measures expiry on the cluster’s clock, not this machine’s', async () => {
    const realNow = Date.now;
    Date.now = () => realNow() + 3_600_000; // this machine's clock is an hour fast
    let lock: AliasLock | undefined;
    try {
      lock = await AliasLock.acquire(client, alias, { ttlMs: 60_000, owner: 'skewed host' });
    } finally {
      Date.now = realNow;
    }
    const written = await client.get<{ expires_at: number }>(lockLocation(alias));
    const cluster = await clusterNow(client);
    expect(written._source?.expires_at).to.be.within(cluster + 50_000, cluster + 61_000);
    await lock?.release();
  });

  it('keeps every alias’s lock in one index and leaves no document behind when released', async () => {
    const other = uniqueName('idx-lock-other');
    const first = await AliasLock.acquire(client, alias, { owner: 'a' });
    const second = await AliasLock.acquire(client, other, { owner: 'b' });
    await client.indices.refresh({ index: LOCK_INDEX });
    const held = await client.search<{ alias: string }>({ index: LOCK_INDEX, size: 100 });
    expect(held.hits.hits.map((hit) => hit._source?.alias)).to.include.members([alias, other]);
    expect(await client.indices.exists({ index: `${alias}.indexer-lock` })).to.equal(false);
    const status = await aliasStatus(client, alias);
    expect(status.lock).to.include({ alias, owner: 'a', expired: false });
    expect(status.locks.map((lock) => lock.alias)).to.include.members([alias, other]);
    expect(describeStatus(status)).to.include(`other reindex running: alias ${other}, held by b`);
    await first.release();
    await second.release();
    expect(await client.exists(lockLocation(alias))).to.equal(false);
    expect(await client.exists(lockLocation(other))).to.equal(false);
  });

  it('never retries the create: a retried create that had succeeded would find its own lock', async () => {
    // The real client, with its index() calls recorded on their way to Elasticsearch.
    const calls: { params: Record<string, unknown>; options: Record<string, unknown> | undefined }[] = [];
    const index = client.index.bind(client);
    const recording = Object.create(client) as typeof client;
    recording.index = ((params: Record<string, unknown>, options?: Record<string, unknown>) => {
      calls.push({ params, options });
      return index(params as never, options as never);
    }) as unknown as typeof client.index;
    const lock = await AliasLock.acquire(recording, alias, { owner: 'careful' });
    await lock.release();
    const create = calls.find((call) => call.params.op_type === 'create');
    expect(create, 'the create').to.not.equal(undefined);
    expect(create?.options).to.deep.include({ maxRetries: 0 });
  });
});
