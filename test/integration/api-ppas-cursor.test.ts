// Cursor paging over the real app and Elasticsearch: walks in every sort return exactly the oracle's records in
// its order, each once; a walk past 10,000 matches returns them all; cursors are bound to their walk; a walk while
// sync changes the index keeps every record whose sort key stays put.
import { expect } from 'chai';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aliasTarget } from '../../indexer/elasticsearch/aliases.js';
import { buildDocument } from '../../indexer/elasticsearch/buildDocument.js';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { writeNdjson } from '../../tools/generate/writeNdjson.js';
import { recordSyncRun } from '../../indexer/elasticsearch/indexMeta.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { loadConfig } from '../../src/config.js';
import { SORT_ORDERS } from '../../src/params/sortOrder.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { paramNames, ppasApi, type ListBody } from '../support/ppasApi.js';
import { useSampleApp } from '../support/sampleApp.js';
import { indexSample, SAMPLE_PATH } from '../support/sampleIndex.js';
import { oracle, sorted } from '../support/sampleOracle.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

interface CursorMeta {
  total: number;
  page: number | null;
  total_pages: number | null;
  next_cursor?: string | null;
}

/** Follows links.next from `first` to the end: the slugs in order, and every page's meta. */
async function walk(get: (path: string) => Promise<{ status: number; body: unknown }>, first: string) {
  const slugs: string[] = [];
  const metas: CursorMeta[] = [];
  let url: string | null = first;
  for (let guard = 0; url && guard < 5000; guard++) {
    const { status, body } = await get(url);
    expect(status, url).to.equal(200);
    const page = body as ListBody & { meta: CursorMeta; links: { next: string | null } };
    slugs.push(...page.data.map((item) => item.slug));
    metas.push(page.meta);
    url = page.links.next;
  }
  return { slugs, metas };
}

describe('GET /api/v1/ppas cursor paging on the sample index', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('api-cursor');
  const { get, list, problem } = ppasApi(() => app().url);

  for (const sort of SORT_ORDERS) {
    it(`walks every match once, in order, with per_page=7: sort=${sort}`, async () => {
      const q = sort === 'relevance' ? 'q=solar&' : '';
      const { slugs, metas } = await walk(get, `/api/v1/ppas?${q}sort=${sort}&per_page=7&cursor=*`);
      expect(new Set(slugs).size, 'no slug twice').to.equal(slugs.length);
      expect(metas[0]?.total).to.equal(slugs.length);
      expect(metas.every((meta) => meta.page === null && meta.total_pages === null)).to.equal(true);
      expect(metas[metas.length - 1]?.next_cursor).to.equal(null);
      if (sort === 'relevance' || sort === 'flags_desc') {
        // The oracle has no scores, nor flags (api-flags.test.ts has their oracle, the order included): the walk
        // must give the order of the pages themselves.
        const paged: string[] = [];
        for (let page = 1; paged.length < slugs.length; page++) {
          paged.push(...(await list(`${q}sort=${sort}&per_page=7&page=${page}`)).data.map((i) => i.slug));
        }
        expect(slugs).to.deep.equal(paged);
      } else {
        expect(slugs).to.deep.equal(sorted(oracle({}), sort));
      }
    });
  }

  it('keeps the filters across the walk and allows another per_page', async () => {
    const first = (await get('/api/v1/ppas?technology=wind&sort=name_asc&per_page=5&cursor=*'))
      .body as ListBody & {
      meta: CursorMeta;
    };
    const next = first.meta.next_cursor ?? '';
    const second = await list(`technology=wind&sort=name_asc&per_page=20&cursor=${next}`);
    const slugs = [...first.data, ...second.data].map((item) => item.slug);
    expect(slugs).to.deep.equal(sorted(oracle({ technology: ['wind'] }), 'name_asc').slice(0, 25));
  });

  it('refuses a cursor that was altered, used with other filters, q or sort, or with page: 400 naming cursor', async () => {
    const body = (await get('/api/v1/ppas?technology=wind&sort=name_asc&per_page=5&cursor=*')).body as {
      meta: CursorMeta;
    };
    const cursor = body.meta.next_cursor ?? '';
    expect(cursor).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const altered = `${cursor.slice(0, 3)}${cursor[3] === 'A' ? 'B' : 'A'}${cursor.slice(4)}`;
    for (const query of [
      `technology=wind&sort=name_asc&cursor=${altered}`,
      `technology=hydro&sort=name_asc&cursor=${cursor}`,
      `technology=wind&sort=name_desc&cursor=${cursor}`,
      `technology=wind&sort=name_asc&q=solar&cursor=${cursor}`,
      `technology=wind&sort=name_asc&cursor=not-a-cursor`,
    ]) {
      expect(paramNames(await problem(`/api/v1/ppas?${query}`)), query).to.deep.equal(['cursor']);
    }
    expect(
      paramNames(await problem(`/api/v1/ppas?technology=wind&sort=name_asc&page=2&cursor=*`)),
    ).to.deep.equal(['cursor']);
  });
});

describe('GET /api/v1/ppas past 10,000 matches', function () {
  this.timeout(180_000);
  const client = testEsClient();
  const alias = uniqueName('api-cursor-deep');
  let app: TestApp;
  let dir = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cursor-deep-'));
    const source = join(dir, 'records.ndjson');
    const output = createWriteStream(source);
    await writeNdjson(generateRecords({ seed: 17, count: 14_000 }), output);
    await new Promise((resolve) => output.end(resolve));
    await indexSample(client, alias, source);
    app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
  });

  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  const getFrom = async (path: string) => {
    const response = await fetch(path.startsWith('http') ? path : `${app.url}${path}`);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('a cursor walk returns meta.total records, none twice', async () => {
    const { slugs, metas } = await walk(getFrom, '/api/v1/ppas?per_page=100&cursor=*');
    const total = metas[0]?.total ?? 0;
    expect(total).to.be.greaterThan(10_000);
    expect(slugs).to.have.length(total);
    expect(new Set(slugs).size).to.equal(total);
  });

  it('page mode at the window: next goes on in cursor mode, right after the last page it could reach', async () => {
    const last = (await getFrom('/api/v1/ppas?per_page=100&page=100&sort=capacity_desc')).body as ListBody;
    expect(last.links.next)
      .to.match(/cursor=/)
      .and.not.match(/[?&]page=/);
    const after = (await getFrom(last.links.next ?? '')).body as ListBody;
    const window = await walk(getFrom, '/api/v1/ppas?per_page=100&sort=capacity_desc&cursor=*');
    expect(after.data.map((item) => item.slug)).to.deep.equal(window.slugs.slice(10_000, 10_100));
    const refused = await getFrom('/api/v1/ppas?per_page=100&page=101');
    expect(refused.status).to.equal(400);
    expect(JSON.stringify(refused.body)).to.contain('cursor=*');
  });
});

// Cursor × sync: a walk while a sync writes into the same index (through the response cache at its default size).
// Records whose sort key does not move are each returned once, however the index changes around them; a record
// deleted ahead of the walk is not returned, one added ahead of it is (docs/architecture.md, guarantees).
describe('GET /api/v1/ppas cursor walk while sync changes the index in place', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-cursor-sync');
  let app: TestApp;

  before(async () => {
    await indexSample(client, alias);
    app = await buildTestApp({
      alias,
      configOverrides: { logLevel: 'warn', responseCacheBytes: loadConfig({}).responseCacheBytes },
    });
  });
  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
  });

  it('returns every unchanged record once, drops one deleted ahead, includes one added ahead', async () => {
    const { get } = ppasApi(() => app.url);
    const sample = readFileSync(SAMPLE_PATH, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as PpaRecord);
    const order = sorted(oracle({}), 'name_asc');
    const index = (await aliasTarget(client, alias))!;
    const bySlug = new Map(sample.map((record) => [record.slug, record]));
    const write = async (record: PpaRecord) => {
      await client.index({ index, id: record.slug, document: buildDocument(record) });
      await recordSyncRun(client, index, { changed: true });
    };
    const remove = async (slug: string) => {
      await client.delete({ index, id: slug });
      await recordSyncRun(client, index, { changed: true });
    };

    const seen: string[] = [];
    const deletedAhead = order[order.length - 10]!;
    const deletedBehind = order[5]!;
    const editedAhead = order[order.length - 20]!;
    const template = bySlug.get(order[0]!)!;
    const added = {
      ...template,
      slug: 'zz-added-mid-walk',
      reference_code: 'ZZ-ADDED',
      project_name: 'Zzz Added',
    };
    let url: string | null = '/api/v1/ppas?sort=name_asc&per_page=20&cursor=*';
    for (let page = 0; url; page += 1) {
      const { status, body } = await get(url);
      expect(status, url).to.equal(200);
      const answer = body as ListBody & { links: { next: string | null } };
      seen.push(...answer.data.map((item) => item.slug));
      url = answer.links.next;
      // The changes land between pages, each as a sync run would make it.
      if (page === 1) await remove(deletedAhead);
      if (page === 2) await remove(deletedBehind);
      if (page === 3) await write({ ...bySlug.get(editedAhead)!, capacity_mw: 999.5 });
      if (page === 4) await write(added);
      if (page === 4) await new Promise((resolve) => setTimeout(resolve, 3_000)); // the caches see it
    }
    expect(new Set(seen).size, 'no record twice').to.equal(seen.length);
    expect(seen, 'the record added ahead of the walk').to.include(added.slug);
    // Every other record in name order, once; the one deleted ahead of the walk is not among them.
    expect(seen.filter((slug) => slug !== added.slug)).to.deep.equal(
      order.filter((slug) => slug !== deletedAhead),
    );
  });
});
