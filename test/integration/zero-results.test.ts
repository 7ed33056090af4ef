// What people fail to find (issue 69): two API instances behind one proxy hop count the list's searches that found
// nothing in one real Redis (a private redis-server: the bound test fills a whole day), clients told apart through
// TRUST_PROXY_HOPS; `ppa-indexer searches --zero-results` lists a query only once three clients sent it on one day,
// with the right counts, within a second; the day's bound and expiry; the CLI's errors.
import { expect } from 'chai';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../src/rateLimit/redisRateLimiter.js';
import { boundedBy } from '../support/timing.js';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import {
  dayKeys,
  dayOf,
  expiresAt,
  MAX_QUERIES_PER_DAY,
  RECORD_SCRIPT,
  MAX_CLIENTS_KEPT,
  readDayCounts,
} from '../../settings/zeroResults.js';
import { createZeroResultsLog, type ZeroResultsLog } from '../../src/zeroResults/zeroResultsLog.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { startCli } from '../support/indexerCliProcess.js';
import { RedisServer } from '../support/redisServer.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

describe('searches that found nothing, counted across instances (issue 69)', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('zero-results');
  let redis: RedisServer;
  let store: Redis;
  const apps: TestApp[] = [];
  const logs: ZeroResultsLog[] = [];

  before(async () => {
    redis = await RedisServer.start();
    store = new Redis(redis.url);
    await indexSample(client, alias);
    for (let i = 0; i < 2; i++) {
      logs.push(createZeroResultsLog({ redisUrl: redis.url, retentionDays: 30 }));
      apps.push(
        await buildTestApp({
          alias,
          // The second instance caches answers: an empty answer sent from the cache is still counted.
          configOverrides: { trustProxyHops: 1, logLevel: 'warn', responseCacheBytes: i === 1 ? 1 << 20 : 0 },
          zeroResults: logs[i]!,
        }),
      );
    }
  });

  after(async () => {
    for (const app of apps) await app.close();
    store.disconnect();
    await redis.kill();
    await deleteIndices(client, alias);
    await client.close();
  });

  /** A query that finds nothing and no other test shares: words made of random letters. */
  const nonsense = () => `zq${randomBytes(6).toString('hex').replace(/\d/g, 'x')} vlorp`;
  const search = async (app: TestApp, q: string, address: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${app.url}/api/v1/ppas?q=${encodeURIComponent(q)}`, {
      headers: { 'X-Forwarded-For': address, ...headers },
    });
    expect(response.status).to.equal(200);
    return ((await response.json()) as { meta: { total: number } }).meta.total;
  };
  const cli = (args: string[], env: Record<string, string> = { REDIS_URL: redis.url }) =>
    startCli(['searches', ...args], { PUBLIC_BASE_URL: '', ...env }).result;
  const report = async (...extra: string[]) => {
    const result = await cli(['--zero-results', '--json', '--api', apps[0]!.url, ...extra]);
    expect(result.code, result.stderr).to.equal(0);
    return JSON.parse(result.stdout) as {
      min_clients: number;
      queries: {
        query: string;
        clients: number;
        searches: number;
        days: number;
        finds_now: boolean | null;
      }[];
    };
  };
  // The apps count after the answer is sent: wait for what is under way.
  const flush = () => Promise.all(logs.map((log) => log.flush()));

  it('lists a query three clients sent on two instances, with their counts, right after the answers; one client’s never', async () => {
    const shared = nonsense();
    const lonely = nonsense();
    await search(apps[0]!, shared, '203.0.113.1');
    await search(apps[1]!, shared.toUpperCase(), '203.0.113.2');
    await search(apps[1]!, `  ${shared}  `, '203.0.113.2');
    await search(apps[0]!, shared, '2001:db8:1::5');
    for (let i = 0; i < 5; i++) await search(apps[i % 2]!, lonely, '198.51.100.7');
    // A search that found something, and an opted-out client: neither is counted.
    expect(await search(apps[0]!, 'solar', '203.0.113.9')).to.be.above(0);
    await search(apps[0]!, lonely, '198.51.100.8', { 'Sec-GPC': '1' });
    await search(apps[1]!, lonely, '198.51.100.9', { 'Sec-GPC': '1' });
    // Counted in the shared Redis right after the answer, without waiting on the instances.
    const answered = Date.now();
    while ((await readDayCounts(store, dayOf(new Date()))).searches.get(shared) !== 4) {
      // One Redis command after the answer: its command timeout is the deadline.
      expect(Date.now() - answered, 'counted').to.be.below(boundedBy(DEFAULT_COMMAND_TIMEOUT_MS));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await flush();
    const found = await report();
    const row = found.queries.find((entry) => entry.query === shared);
    expect(row, JSON.stringify(found)).to.deep.include({
      query: shared,
      clients: 3,
      searches: 4,
      days: 1,
      finds_now: false,
    });
    expect(found.queries.map((entry) => entry.query)).to.not.include(lonely);
    expect(found.min_clients).to.equal(3);
  });

  it('counts an empty answer served from the response cache', async () => {
    const q = nonsense();
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) await search(apps[1]!, q, address);
    await flush();
    const row = (await report()).queries.find((entry) => entry.query === q);
    expect(row).to.deep.include({ clients: 3, searches: 3 });
  });

  it('keeps a day within its bound: a full day keeps the queries asked more than once; its keys expire with the retention', async () => {
    // Tomorrow's: its keys expire in the future, and no other test counts into it.
    const day = dayOf(new Date(Date.now() + 86_400_000));
    const keys = dayKeys(day);
    const expiry = expiresAt(day, 30);
    const record = (query: string, client: string) =>
      store.eval(
        RECORD_SCRIPT,
        2,
        keys.queries,
        keys.clients,
        query,
        client,
        MAX_QUERIES_PER_DAY,
        MAX_CLIENTS_KEPT,
        expiry,
      );
    const pipeline = store.pipeline();
    for (let i = 0; i < MAX_QUERIES_PER_DAY; i++) {
      pipeline.eval(
        RECORD_SCRIPT,
        2,
        keys.queries,
        keys.clients,
        `q${i}`,
        'c',
        MAX_QUERIES_PER_DAY,
        MAX_CLIENTS_KEPT,
        expiry,
      );
    }
    await pipeline.exec();
    await record('q5', 'd');
    expect(await store.zcard(keys.queries)).to.equal(MAX_QUERIES_PER_DAY);
    // A new query takes the place of one asked once; when every one was asked twice, it is not kept.
    expect(await record('newcomer', 'c')).to.equal(1);
    expect(await store.zscore(keys.queries, 'newcomer')).to.equal('1');
    expect(await store.zscore(keys.queries, 'q5')).to.equal('2');
    expect(await store.zcard(keys.queries)).to.equal(MAX_QUERIES_PER_DAY);
    const again = store.pipeline();
    const kept = await store.zrange(keys.queries, 0, -1);
    for (const query of kept)
      again.eval(
        RECORD_SCRIPT,
        2,
        keys.queries,
        keys.clients,
        query,
        'e',
        MAX_QUERIES_PER_DAY,
        MAX_CLIENTS_KEPT,
        expiry,
      );
    await again.exec();
    expect(await record('late', 'c')).to.equal(0);
    expect(await store.zscore(keys.queries, 'late')).to.equal(null);
    expect(await store.hget(keys.clients, 'q5')).to.equal('c,d,e');
    for (const key of [keys.queries, keys.clients])
      expect(await store.call('EXPIRETIME', key)).to.equal(expiry);
    await store.del(keys.queries, keys.clients);
  });

  // The CLI runs of a test are independent processes: started together, each a Node start, not one after another.
  it('reads today by default and says so; --since takes days', async () => {
    const [found, text] = await Promise.all([
      report('--since', '3d'),
      cli(['--zero-results', '--since', '1d']),
    ]);
    expect(found).to.have.property('queries');
    expect(text.code).to.equal(0);
    expect(text.stdout).to.include(`${dayOf(new Date())} to ${dayOf(new Date())} (UTC)`);
    expect(text.stdout).to.match(/searches {2}clients {2}days {2}finds now {2}query/);
  });

  it('names a bad --since, asks for the report, needs REDIS_URL, and exits 6 when Redis does not answer', async () => {
    const [bad, none, unset, away] = await Promise.all([
      cli(['--zero-results', '--since', '7x']),
      cli([]),
      cli(['--zero-results'], { REDIS_URL: '' }),
      cli(['--zero-results'], { REDIS_URL: 'redis://127.0.0.1:1' }),
    ]);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('--since');
    expect(none.code).to.equal(2);
    expect(none.stderr).to.include('--zero-results');
    expect(unset.code).to.equal(2);
    expect(unset.stderr).to.include('REDIS_URL');
    expect(away.code).to.equal(6);
    expect(away.stderr).to.include('did not answer');
  });
});
