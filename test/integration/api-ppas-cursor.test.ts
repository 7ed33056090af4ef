// Cursor paging over the real app and Elasticsearch: walks in every sort return exactly the oracle's records in
// its order, each once; a walk past 10,000 matches returns them all; cursors are bound to their walk.
import { expect } from 'chai';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRecords } from '../../indexer/generate/generateRecords.js';
import { writeNdjson } from '../../indexer/generate/writeNdjson.js';
import { SORT_ORDERS } from '../../src/params/list.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { paramNames, ppasApi, type ListBody } from '../support/ppasApi.js';
import { useSampleApp } from '../support/sampleApp.js';
import { indexSample } from '../support/sampleIndex.js';
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
      if (sort === 'relevance') {
        // The oracle has no scores: the walk must give the order of the pages themselves.
        const paged: string[] = [];
        for (let page = 1; paged.length < slugs.length; page++) {
          paged.push(
            ...(await list(`q=solar&sort=relevance&per_page=7&page=${page}`)).data.map((i) => i.slug),
          );
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
