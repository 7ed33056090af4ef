// The response cache on a real Elasticsearch: a hit answers what a miss answers (body, ETag, Link, br/gzip bytes,
// 304, HEAD), equivalent requests share one entry, the rate limit counts hits, the byte bound holds under a
// flood of distinct requests; a change in place (a sync run's data version), a reindex and a rollback are each seen
// by two instances within FRESH_FOR_MS (the tests' slack on top), never the old data after, and an old ETag then
// gets the new body, never a 304.
import { expect } from 'chai';
import { FRESH_FOR_MS } from '../../src/liveState/generationWatcher.js';
import { boundedBy } from '../support/timing.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { aliasTarget } from '../../indexer/elasticsearch/aliases.js';
import { buildDocument } from '../../indexer/elasticsearch/buildDocument.js';
import { recordSyncRun } from '../../indexer/elasticsearch/indexMeta.js';
import { rollback } from '../../indexer/reindex/rollback.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { indexSample, SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request whose body comes back as sent (Node's fetch would decode it). */
function raw(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
  agent: Agent | false = false,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, method, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decoded = (answer: Raw): unknown => {
  const encoding = answer.headers['content-encoding'];
  const text =
    encoding === 'gzip'
      ? gunzipSync(answer.body)
      : encoding === 'br'
        ? brotliDecompressSync(answer.body)
        : answer.body;
  return JSON.parse(text.toString('utf8'));
};

/** Every app links to one base, so answers compare across apps. */
const SHARED = { logLevel: 'warn', publicBaseUrl: 'https://api.example.org' } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds an app with the cache on and waits until it knows the generation (its first alias lookup). */
async function cachedApp(
  alias: string,
  bytes: number,
  extra: Parameters<typeof buildTestApp>[0] = { alias },
) {
  const app = await buildTestApp({
    ...extra,
    alias,
    configOverrides: { ...SHARED, responseCacheBytes: bytes, ...extra.configOverrides },
  });
  const cache = app.responseCache;
  if (!cache) throw new Error('the cache is on');
  for (let tries = 0; cache.keyOf('probe', '') === undefined; tries += 1) {
    if (tries > 100) throw new Error('the alias lookup never answered');
    await sleep(20);
  }
  return Object.assign(app, { cache });
}

describe('response cache', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-cache');
  const apps: TestApp[] = [];
  let cached: TestApp & { cache: NonNullable<TestApp['responseCache']> };
  let uncached: TestApp;

  before(async () => {
    await indexSample(client, alias);
    cached = await cachedApp(alias, 8 * 1024 * 1024, { alias, withMetrics: true });
    uncached = await buildTestApp({ alias, configOverrides: SHARED });
    apps.push(cached, uncached);
  });

  after(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await deleteIndices(client, alias);
    await client.close();
  });

  afterEach(() => {
    for (const app of apps) {
      const failures = app.logs.filter((line) => line.level >= 50);
      expect(failures, JSON.stringify(failures[0])).to.deep.equal([]);
    }
  });

  const metric = async (name: string): Promise<number> => {
    const text = await cached.metrics!.registry.metrics();
    const line = text.split('\n').find((row) => row.startsWith(`${name} `));
    return Number(line?.split(' ')[1]);
  };

  it('a hit answers the body, ETag and Link of the miss, and of an app without a cache', async () => {
    const path = '/api/v1/ppas?per_page=5&sort=name_asc&technology=solar';
    const before = cached.cache.stats();
    const miss = await raw(`${cached.url}${path}`);
    const hit = await raw(`${cached.url}${path}`);
    const reference = await raw(`${uncached.url}${path}`);
    const after = cached.cache.stats();
    expect(after.misses - before.misses).to.equal(1);
    expect(after.hits - before.hits).to.equal(1);
    for (const answer of [miss, hit]) {
      expect(answer.status).to.equal(200);
      expect(answer.headers.etag).to.equal(reference.headers.etag);
      expect(answer.headers.link).to.equal(reference.headers.link);
      expect(answer.headers['content-type']).to.equal(reference.headers['content-type']);
      expect(answer.headers['cache-control']).to.equal(reference.headers['cache-control']);
      expect(answer.headers['x-ratelimit-remaining']).to.be.a('string');
      expect(answer.body.equals(reference.body)).to.equal(true);
    }
  });

  it('parameter order and blank parameters share one entry (the hit metric moves, not the miss metric)', async () => {
    const hits = await metric('ppa_response_cache_hits_total');
    const misses = await metric('ppa_response_cache_misses_total');
    const first = await raw(`${cached.url}/api/v1/ppas?technology=wind&sort=name_asc&per_page=3`);
    const reordered = await raw(
      `${cached.url}/api/v1/ppas?per_page=3&&page=&sort=name_asc&q=+&technology=wind`,
    );
    expect(await metric('ppa_response_cache_misses_total')).to.equal(misses + 1);
    expect(await metric('ppa_response_cache_hits_total')).to.equal(hits + 1);
    expect(reordered.body.equals(first.body)).to.equal(true);
    expect(reordered.headers.etag).to.equal(first.headers.etag);
    expect(await metric('ppa_response_cache_entries')).to.be.above(0);
    expect(await metric('ppa_response_cache_bytes')).to.be.above(0);
    // Statistics the same way: a filter's blank twin and another order are one entry.
    const stats = cached.cache.stats();
    const a = await raw(`${cached.url}/api/v1/ppas/statistics?technology=wind&country=DE`);
    const b = await raw(`${cached.url}/api/v1/ppas/statistics?country=DE&developer=&technology=wind`);
    expect(a.status).to.equal(200);
    expect(b.body.equals(a.body)).to.equal(true);
    expect(cached.cache.stats().hits - stats.hits).to.equal(1);
    // A bad request is refused before any lookup, cached twin or not.
    const bad = await raw(`${cached.url}/api/v1/ppas?technology=wind&sort=name_asc&per_page=3&bogus=`);
    expect(bad.status).to.equal(400);
  });

  for (const encoding of ['gzip', 'br'] as const) {
    it(`${encoding} hits decode to the same JSON, with the encoded ETag; 304 and HEAD work on hits`, async () => {
      const path = `/api/v1/ppas?sort=name_desc&per_page=${encoding === 'gzip' ? 25 : 24}`;
      const url = `${cached.url}${path}`;
      const plain = await raw(url);
      const headers = { 'Accept-Encoding': encoding };
      const miss = await raw(url, headers);
      const stats = cached.cache.stats();
      const hit = await raw(url, headers);
      expect(cached.cache.stats().hits - stats.hits).to.equal(1);
      for (const answer of [miss, hit]) {
        expect(answer.headers['content-encoding']).to.equal(encoding);
        expect(String(answer.headers.vary)).to.match(/Accept-Encoding/i);
        expect(answer.headers.etag).to.equal(String(plain.headers.etag).replace(/"$/, `-${encoding}"`));
        expect(decoded(answer)).to.deep.equal(JSON.parse(plain.body.toString('utf8')));
      }
      expect(hit.body.equals(miss.body)).to.equal(true);
      const revalidated = await raw(url, { ...headers, 'If-None-Match': String(hit.headers.etag) });
      expect(revalidated.status).to.equal(304);
      expect(revalidated.headers.etag).to.equal(hit.headers.etag);
      expect(revalidated.body.length).to.equal(0);
      const head = await raw(url, headers, 'HEAD');
      expect(head.status).to.equal(200);
      expect(head.body.length).to.equal(0);
      expect(head.headers.etag).to.equal(hit.headers.etag);
      expect(head.headers['content-encoding']).to.equal(encoding);
      expect(Number(head.headers['content-length'])).to.equal(hit.body.length);
    });
  }

  it('an answer first sent compressed is kept compressed only; identity and br hits are made from it, exactly', async () => {
    const path = '/api/v1/ppas?sort=name_asc&per_page=23';
    const reference = await raw(`${uncached.url}${path}`);
    const before = cached.cache.stats();
    const miss = await raw(`${cached.url}${path}`, { 'Accept-Encoding': 'gzip' });
    expect(miss.headers['content-encoding']).to.equal('gzip');
    // Held: the gzip bytes, not the identity body beside them.
    const held = cached.cache.stats().bytes - before.bytes;
    expect(held).to.be.below(reference.body.length);
    expect(held).to.be.at.least(miss.body.length);

    const identity = await raw(`${cached.url}${path}`);
    const br = await raw(`${cached.url}${path}`, { 'Accept-Encoding': 'br' });
    expect(cached.cache.stats().hits - before.hits).to.equal(2);
    expect(identity.headers['content-encoding']).to.equal(undefined);
    expect(identity.body.equals(reference.body)).to.equal(true);
    expect(identity.headers.etag).to.equal(reference.headers.etag);
    expect(br.headers['content-encoding']).to.equal('br');
    expect(br.headers.etag).to.equal(String(reference.headers.etag).replace(/"$/, '-br"'));
    expect(decoded(br)).to.deep.equal(JSON.parse(reference.body.toString('utf8')));
  });

  it('detail, suggest and OpenAPI answers are cached too; the export never is', async () => {
    const list = decoded(await raw(`${cached.url}/api/v1/ppas?per_page=1`)) as { data: { slug: string }[] };
    const slug = list.data[0]?.slug ?? '';
    for (const path of [`/api/v1/ppas/${slug}`, '/api/v1/ppas/suggest?q=sol', '/api/v1/openapi.json']) {
      const first = await raw(`${cached.url}${path}`);
      const stats = cached.cache.stats();
      const second = await raw(`${cached.url}${path}`);
      expect(first.status, path).to.equal(200);
      expect(cached.cache.stats().hits - stats.hits, path).to.equal(1);
      expect(second.body.equals(first.body), path).to.equal(true);
      const reference = await raw(`${uncached.url}${path}`);
      expect(second.headers.etag, path).to.equal(reference.headers.etag);
      expect(second.body.equals(reference.body), path).to.equal(true);
    }
    const stats = cached.cache.stats();
    await raw(`${cached.url}/api/v1/ppas/export?format=ndjson&technology=wind`);
    await raw(`${cached.url}/api/v1/ppas/export?format=ndjson&technology=wind`);
    expect(cached.cache.stats()).to.include({ hits: stats.hits, misses: stats.misses });
  });

  it('highlight=true is cached apart from the same request without it, on the list and on suggest', async () => {
    for (const path of ['/api/v1/ppas?q=solar&per_page=3', '/api/v1/ppas/suggest?q=sola']) {
      const plain = decoded(await raw(`${cached.url}${path}`)) as { data: object[] };
      const stats = cached.cache.stats();
      const highlighted = decoded(await raw(`${cached.url}${path}&highlight=true`)) as { data: object[] };
      expect(cached.cache.stats().misses - stats.misses, path).to.equal(1);
      expect(plain.data[0], path).to.not.have.property('highlights');
      expect(highlighted.data[0], path).to.have.property('highlights');
      const again = decoded(await raw(`${cached.url}${path}`)) as { data: object[] };
      expect(again.data[0], path).to.not.have.property('highlights');
    }
  });

  it('the rate limit counts every request, hits included', async () => {
    const limited = await cachedApp(alias, 1024 * 1024, { alias, configOverrides: { rateLimitPoints: 3 } });
    apps.push(limited);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await raw(`${limited.url}/api/v1/ppas/statistics`)).status);
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429]);
    expect(limited.cache.stats().hits).to.equal(2);
  });

  type Answer = { meta: { did_you_mean?: unknown } };

  it('holds its byte bound under a flood of 2,000 distinct requests, and answers each correctly', async () => {
    const bound = 64 * 1024;
    const tiny = await cachedApp(alias, bound);
    apps.push(tiny);
    const words = ['solar', 'wind', 'hydro', 'power', 'energy', 'farm', 'park', 'gmbh', 'ltd', 'green'];
    let largest = 0;
    let next = 0;
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const worker = async () => {
      while (next < 2_000) {
        const n = next++;
        const q = `${words[n % words.length]} ${n}`;
        const path = `/api/v1/ppas?per_page=10&q=${encodeURIComponent(q)}`;
        const encoding = { 'Accept-Encoding': n % 2 ? 'gzip' : 'br' };
        const answer = await raw(`${tiny.url}${path}`, encoding, 'GET', agent);
        expect(answer.status, path).to.equal(200);
        largest = Math.max(largest, tiny.cache.stats().bytes);
        if (n % 100 === 0) {
          const reference = JSON.parse((await raw(`${uncached.url}${path}`)).body.toString('utf8')) as Answer;
          const flooded = decoded(answer) as Answer;
          // Eight at once keep admission busy, and a busy API skips "did you mean" by design (issue 72): the
          // flooded answer offers the reference's suggestion or none, and is otherwise the same answer.
          if (flooded.meta.did_you_mean === null) reference.meta.did_you_mean = null;
          expect(flooded, path).to.deep.equal(reference);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    agent.destroy();
    const stats = tiny.cache.stats();
    expect(largest).to.be.at.most(bound);
    expect(stats.bytes)
      .to.be.at.most(bound)
      .and.above(bound / 4);
    expect(stats.misses).to.equal(2_000);
    expect(stats.entries).to.be.above(2).and.below(200);
  });

  it('a change in place (a sync run) is seen by two instances within FRESH_FOR_MS; the old ETag gets the new body, in every encoding', async () => {
    const second = await cachedApp(alias, 8 * 1024 * 1024);
    apps.push(second);
    const instances = [cached, second];
    const record = JSON.parse(readFileSync(SAMPLE_PATH, 'utf8').split('\n')[0]!) as PpaRecord;
    expect(record.published).to.equal(true);
    const path = `/api/v1/ppas/${record.slug}`;
    const encodings = ['identity', 'gzip', 'br'];
    // Cached on both instances, in every encoding; each form's ETag noted.
    const oldTags = new Map<string, string>();
    for (const app of instances) {
      for (const encoding of encodings) {
        const answer = await raw(`${app.url}${path}`, { 'Accept-Encoding': encoding });
        expect(answer.status).to.equal(200);
        oldTags.set(encoding, String(answer.headers.etag));
      }
    }
    // What sync does: the document rewritten in the live index, then the run recorded (refresh, data version).
    const index = (await aliasTarget(client, alias))!;
    await client.index({
      index,
      id: record.slug,
      document: buildDocument({ ...record, capacity_mw: 4321.5 }),
    });
    await recordSyncRun(client, index, { changed: true });
    const changedAt = Date.now();
    await Promise.all(
      instances.map(async (app) => {
        for (const encoding of encodings) {
          for (;;) {
            const answer = await raw(`${app.url}${path}`, {
              'Accept-Encoding': encoding,
              'If-None-Match': oldTags.get(encoding)!,
            });
            if (answer.status === 200) {
              expect((decoded(answer) as { data: { capacity_mw: number } }).data.capacity_mw).to.equal(
                4321.5,
              );
              expect(answer.headers.etag).to.not.equal(oldTags.get(encoding));
              break;
            }
            expect(answer.status, 'the old ETag matched the unchanged body').to.equal(304);
            // FRESH_FOR_MS: how long an instance trusts its last look at the generation.
            expect(Date.now() - changedAt, `the change is seen (${encoding})`).to.be.below(
              boundedBy(FRESH_FOR_MS),
            );
            await sleep(50);
          }
        }
      }),
    );
    // After that: never the old body, never a 304 for the old tag.
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      for (const app of instances) {
        const answer = await raw(`${app.url}${path}`, { 'If-None-Match': oldTags.get('identity')! });
        expect(answer.status).to.equal(200);
      }
      await sleep(100);
    }
    await client.index({ index, id: record.slug, document: buildDocument(record), refresh: true });
    await recordSyncRun(client, index, { changed: true });
  });

  it('a reindex is seen by two instances within FRESH_FOR_MS, and the old generation is never served after', async () => {
    const second = await cachedApp(alias, 8 * 1024 * 1024);
    apps.push(second);
    const instances = [cached, second];
    const path = '/api/v1/ppas/statistics';
    const totalOf = async (app: TestApp) =>
      decoded(await raw(`${app.url}${path}`)) as { meta?: { total?: number }; data?: { total?: number } };
    const before = await Promise.all(instances.map(totalOf));
    await Promise.all(instances.map(totalOf)); // now cached on both
    expect(before[0]).to.deep.equal(before[1]);

    // The next generation lacks the first 50 records: its statistics differ.
    const dir = mkdtempSync(join(tmpdir(), 'api-cache-'));
    try {
      const source = join(dir, 'fewer.ndjson');
      writeFileSync(source, readFileSync(SAMPLE_PATH, 'utf8').split('\n').slice(50).join('\n'));
      // 50 PPAs fewer is past the default removal guard: meant here.
      await indexSample(client, alias, source, { maxRemoved: { share: 1 } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const swapped = Date.now();
    const seenAfter: number[] = [];
    await Promise.all(
      instances.map(async (app, i) => {
        for (;;) {
          const now = await totalOf(app);
          if (JSON.stringify(now) !== JSON.stringify(before[i])) break;
          expect(Date.now() - swapped, 'the swap is seen').to.be.below(boundedBy(FRESH_FOR_MS));
          await sleep(50);
        }
        seenAfter.push(Date.now() - swapped);
      }),
    );
    expect(seenAfter).to.have.length(2);
    // After that: only the new generation, on both, for a few seconds of polling.
    const fresh = await totalOf(cached);
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      for (const app of instances) expect(await totalOf(app)).to.deep.equal(fresh);
      await sleep(100);
    }
    expect(cached.cache.stats().hits).to.be.above(0);
  });

  it('a rollback is seen by two instances within FRESH_FOR_MS (after the reindex above), never the rolled-back data after', async () => {
    const second = await cachedApp(alias, 8 * 1024 * 1024);
    apps.push(second);
    const instances = [cached, second];
    const path = '/api/v1/ppas?per_page=1';
    const totalOf = async (app: TestApp) => {
      const answer = await raw(`${app.url}${path}`);
      expect(answer.status, answer.body.toString()).to.equal(200);
      return (decoded(answer) as { meta: { total: number } }).meta.total;
    };
    const before = await Promise.all(instances.map(totalOf));
    await Promise.all(instances.map(totalOf)); // cached
    const result = await rollback(client, alias);
    expect(result.to).to.not.equal(result.from);
    const rolledBack = Date.now();
    await Promise.all(
      instances.map(async (app, i) => {
        while ((await totalOf(app)) === before[i]) {
          expect(Date.now() - rolledBack, 'the rollback is seen').to.be.below(boundedBy(FRESH_FOR_MS));
          await sleep(50);
        }
      }),
    );
    const restored = await Promise.all(instances.map(totalOf));
    expect(restored[0]).to.be.above(before[0]!); // the full sample again: the reindex above left 50 out
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      for (const app of instances) expect(await totalOf(app)).to.equal(restored[0]);
      await sleep(100);
    }
  });
});
