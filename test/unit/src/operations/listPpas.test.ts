// GET /api/v1/ppas: the handler reads the change log's head before the search, runs the list's plan through the
// gateway, keys its answer by the base and the canonical query string, and answers the page with its Link header
// (left out when too long). Driven through Koa in-process over a recording gateway; the searches' bodies in detail
// are listSearch.test.ts's, the presenter's arithmetic list.test.ts's.
import { expect } from 'chai';
import type { ListSource } from '../../../../indexContract/sourceFields.js';
import { OPERATIONS } from '../../../../src/operations/catalog.js';
import { listPpas } from '../../../../src/operations/listPpas.js';
import { COMBINED_FACETS_AGGREGATION } from '../../../../src/queries/facetAggregations.js';
import {
  SearchOverloadedError,
  SearchTooLargeError,
  SearchUnavailableError,
} from '../../../../src/gateway/searchErrors.js';
import { jsonOf } from '../../../support/koaServer.js';
import { liveStateOf } from '../../../support/liveState.js';
import { cachedAnswers } from '../../../support/operationDeps.js';
import {
  didYouMeanSearch,
  failing,
  filterClauses,
  searchResponse,
} from '../../../support/recordingGateway.js';
import { servedStateOf } from '../../../support/servedState.js';
import { headThenSearch, operationServers } from '../../../support/servedOperations.js';
import { listSource } from '../../../support/sources.js';

const kahone = listSource;
const kafue: ListSource = {
  ...listSource,
  slug: 'kafue-wind',
  project_name: 'Kafue Wind',
  technology: 'wind',
  country_code: 'ZM',
};

interface ListBody {
  data: Record<string, unknown>[];
  meta: Record<string, unknown>;
  links: Record<string, string | null>;
}

describe('operations/listPpas: GET /api/v1/ppas', () => {
  const serve = operationServers([listPpas]);
  const serveAll = operationServers(OPERATIONS);
  const page =
    (sources: ListSource[], total = sources.length) =>
    () =>
      searchResponse(sources, { total });

  it('asks for one page of the filtered list in the order asked, and answers it with meta and links', async () => {
    const served = await serve({ search: page([kafue, kahone], 5) });
    const answer = await served.get('/api/v1/ppas?technology=wind&sort=capacity_desc&page=2&per_page=2');
    expect(answer.status).to.equal(200);
    const [request, ...more] = served.requests('search');
    expect(more).to.deep.equal([]);
    expect(served.calls.map((call) => call.method)).to.deep.equal(['search']);
    expect([request?.size, request?.from, request?.track_total_hits]).to.deep.equal([2, 2, true]);
    expect(request?.sort).to.deep.equal([{ capacity_mw: { order: 'desc' } }, { slug: { order: 'asc' } }]);
    expect(filterClauses(request)).to.deep.include.members([
      { term: { active: true } },
      { terms: { technology: ['wind'] } },
    ]);

    expect(answer.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).to.equal('public, max-age=60');
    const body = jsonOf<ListBody>(answer);
    expect(body.data.map((item) => item.slug)).to.deep.equal(['kafue-wind', 'kahone-solar']);
    // Links on the request's own origin (no PUBLIC_BASE_URL), the parameters in name order.
    const base = served.server.base;
    expect(body.data[0]?.url).to.equal(`${base}/api/v1/ppas/kafue-wind`);
    expect(body.meta).to.include({ total: 5, page: 2, per_page: 2, total_pages: 3, sort: 'capacity_desc' });
    expect(body.links.next).to.equal(
      `${base}/api/v1/ppas?page=3&per_page=2&sort=capacity_desc&technology=wind`,
    );
    // The Link header carries the body's links.
    const link = String(answer.headers.link);
    for (const rel of ['self', 'first', 'prev', 'next', 'last']) {
      expect(link, rel).to.include(`<${body.links[rel]}>; rel="${rel}"`);
    }
  });

  it('offers did_you_mean on an empty answer once the vocabulary is read; before, sends it unkept (issue 69)', async () => {
    const liveState = liveStateOf({
      liveGeneration: async () => 'ppas-1@0',
      vocabularyPage: async () => ({ words: [['kahone', 1]], after: undefined }),
    });
    const served = await serve({ search: didYouMeanSearch(1) }, { liveState, answer: cachedAnswers() });
    const path = '/api/v1/ppas?q=kahone%20zorblat';
    try {
      for (let asked = 1; asked <= 2; asked++) {
        const body = jsonOf<ListBody>(await served.get(path));
        expect(body.meta).to.not.have.property('did_you_mean');
        expect(served.requests('search')).to.have.length(asked);
      }
      await liveState.watchVocabulary().read();
      const offered = jsonOf<ListBody>(await served.get(path));
      expect(offered.meta.did_you_mean).to.deep.equal({
        q: 'kahone',
        total: 1,
        url: `${served.server.base}/api/v1/ppas?q=kahone`,
      });
      // The page, then the likeliest rewrite counted (one search); then kept: asked again, nothing is searched.
      expect(served.requests('search')).to.have.length(4);
      await served.get(path);
      expect(served.requests('search')).to.have.length(4);
    } finally {
      liveState.close();
    }
  });

  it('puts links on PUBLIC_BASE_URL when it is set', async () => {
    const served = await serve({ search: page([kahone]) }, { publicBaseUrl: 'https://ppa.example.org' });
    const body = jsonOf<ListBody>(await served.get('/api/v1/ppas?country=sn'));
    expect(body.data[0]?.url).to.equal('https://ppa.example.org/api/v1/ppas/kahone-solar');
    expect(body.links.self).to.equal('https://ppa.example.org/api/v1/ppas?country=sn&page=1');
  });

  it('keys its answer by the canonical query and the base: the same list asked otherwise is answered once', async () => {
    const served = await serve({ search: page([kahone]) }, { answer: cachedAnswers() });
    const first = await served.get('/api/v1/ppas?technology=solar_pv&q=kahone');
    const again = await served.get('/api/v1/ppas?q=kahone&developer=&technology=solar_pv');
    expect([first.status, again.status]).to.deep.equal([200, 200]);
    expect(served.requests('search')).to.have.length(1);
    expect(again.body.equals(first.body)).to.equal(true);
    expect(jsonOf<ListBody>(first).links.self).to.equal(
      `${served.server.base}/api/v1/ppas?q=kahone&technology=solar_pv&page=1`,
    );
    // Another host is another base: its links differ, so it is an answer of its own.
    const elsewhere = await served.get('/api/v1/ppas?q=kahone&technology=solar_pv', {
      headers: { Host: 'mirror.example.org:8080' },
    });
    expect(served.requests('search')).to.have.length(2);
    expect(jsonOf<ListBody>(elsewhere).links.self).to.equal(
      'http://mirror.example.org:8080/api/v1/ppas?q=kahone&technology=solar_pv&page=1',
    );
  });

  it('says where to follow the change log from, read before the search; null without a readable log', async () => {
    const logged = headThenSearch({ epoch: 'k3xq9a', seq: 1042 }, page([kahone]));
    const served = await serve(logged.script, logged.given);
    const body = jsonOf<ListBody>(await served.get('/api/v1/ppas'));
    expect(body.meta.changes_since).to.equal('k3xq9a.1042');
    expect(logged.order).to.deep.equal(['head', 'search']);

    const noLog = await serve(
      { search: page([kahone]) },
      { liveState: liveStateOf({ servedState: async () => servedStateOf(null) }) },
    );
    expect(jsonOf<ListBody>(await noLog.get('/api/v1/ppas')).meta.changes_since).to.equal(null);
    // The head cannot be read (its lookup fails): the answer does not depend on it, so it is still given.
    const unreadable = await serve({ search: page([kahone]) }, { liveState: liveStateOf({}) });
    const answer = await unreadable.get('/api/v1/ppas');
    expect(answer.status).to.equal(200);
    expect(jsonOf<ListBody>(answer).meta.changes_since).to.equal(null);
  });

  it('facets without q: the page and the counts in one _msearch, the buckets in meta.facets', async () => {
    const counts = {
      [COMBINED_FACETS_AGGREGATION]: {
        doc_count: 3,
        values: {
          sum_other_doc_count: 0,
          buckets: [
            { key: 'technology:wind', doc_count: 2 },
            { key: 'technology:solar_pv', doc_count: 1 },
          ],
        },
      },
    };
    const served = await serve({
      msearch: () => [
        searchResponse([kafue, kahone], { total: 3 }),
        searchResponse([], { aggregations: counts }),
      ],
    });
    const body = jsonOf<ListBody>(await served.get('/api/v1/ppas?facets=technology'));
    expect(served.calls.map((call) => call.method)).to.deep.equal(['msearch']);
    const [pageSearch, countSearch] = served.calls[0]?.request as { size?: number }[];
    expect([pageSearch?.size, countSearch?.size]).to.deep.equal([25, 0]);
    expect(body.meta.facets).to.deep.equal({
      technology: [
        { value: 'wind', count: 2 },
        { value: 'solar_pv', count: 1 },
      ],
    });
    expect(body.meta.total).to.equal(3);
  });

  it('cursor mode: cursor=* starts the walk, the next cursor resumes after the last record sent', async () => {
    const served = await serve({
      search: (_request, _options, nth) =>
        nth === 0
          ? searchResponse(
              [
                { source: kafue, sort: [1_711_972_800_000, 'kafue-wind'] },
                { source: kahone, sort: [1_709_294_400_000, 'kahone-solar'] },
              ],
              { total: 3 },
            )
          : searchResponse([], { total: 3 }),
    });
    const first = jsonOf<ListBody>(await served.get('/api/v1/ppas?cursor=*&per_page=2'));
    expect([first.meta.page, first.meta.total_pages]).to.deep.equal([null, null]);
    const next = first.meta.next_cursor;
    expect(next).to.be.a('string');
    expect(first.links.next).to.equal(
      `${served.server.base}/api/v1/ppas?cursor=${encodeURIComponent(String(next))}&per_page=2`,
    );
    const second = await served.get(`/api/v1/ppas?per_page=2&cursor=${encodeURIComponent(String(next))}`);
    expect(second.status).to.equal(200);
    expect(jsonOf<ListBody>(second).meta.next_cursor).to.equal(null);
    const [start, resume] = served.requests('search');
    expect(start).to.not.have.any.keys('from', 'search_after');
    expect(resume?.search_after).to.deep.equal([1_709_294_400_000, 'kahone-solar']);
    expect(resume).to.not.have.property('from');
  });

  it('highlights why each item matched only when asked and with a q', async () => {
    const served = await serve({ search: page([kahone]) });
    const asked = jsonOf<ListBody>(await served.get('/api/v1/ppas?q=kahone&highlight=true'));
    expect(asked.data[0]?.highlights).to.deep.equal({ project_name: [[0, 6]] });
    for (const path of ['/api/v1/ppas?highlight=true', '/api/v1/ppas?q=kahone']) {
      const body = jsonOf<ListBody>(await served.get(path));
      expect(body.data[0], path).to.not.have.property('highlights');
    }
  });

  it('leaves the Link header out when it would be too long; the body keeps its links', async () => {
    const slugs = Array.from({ length: 100 }, (_, index) => `${'a'.repeat(50)}-${index}`);
    const served = await serve({ search: page([kahone]) });
    const answer = await served.get(`/api/v1/ppas?slug=${slugs.join(',')}`);
    expect(answer.status).to.equal(200);
    expect(answer.headers).to.not.have.property('link');
    expect(jsonOf<ListBody>(answer).links.self).to.include(slugs[99]);
    expect(filterClauses(served.requests('search')[0])).to.deep.include({ terms: { slug: slugs } });
  });

  it('revalidates: ETag on the answer, 304 when If-None-Match names it; HEAD sends the headers alone', async () => {
    const served = await serve({ search: page([kahone]) });
    const answer = await served.get('/api/v1/ppas');
    const etag = String(answer.headers.etag);
    expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
    const revalidated = await served.get('/api/v1/ppas', { headers: { 'If-None-Match': etag } });
    expect([revalidated.status, revalidated.body.length]).to.deep.equal([304, 0]);
    const head = await served.get('/api/v1/ppas', { method: 'HEAD' });
    expect([head.status, head.body.length, head.headers.etag]).to.deep.equal([200, 0, etag]);
    expect(head.headers.link).to.equal(answer.headers.link);
    const other = await served.get('/api/v1/ppas?per_page=1');
    expect(other.headers.etag).to.not.equal(etag);
  });

  it('refuses a bad query with a 400 naming every parameter, without a search', async () => {
    const served = await serveAll();
    const cases: [string, { name: string; reason: string }[] | string[]][] = [
      ['sort=relevance', ['sort']],
      ['page=401', ['page']],
      ['cursor=*&page=2', ['cursor']],
      ['per_page=101&min_capacity=9&max_capacity=1', ['min_capacity', 'per_page']],
      [
        'since=k.1&format=csv&zz=1',
        [
          { name: 'since', reason: 'is not a parameter of GET /api/v1/ppas' },
          { name: 'format', reason: 'is not a parameter of GET /api/v1/ppas' },
          { name: 'zz', reason: 'unknown parameter' },
        ],
      ],
    ];
    for (const [querystring, expected] of cases) {
      const answer = await served.get(`/api/v1/ppas?${querystring}`);
      expect(answer.status, querystring).to.equal(400);
      expect(answer.headers['content-type'], querystring).to.equal('application/problem+json');
      const problems = jsonOf<{ invalid_params: { name: string; reason: string }[] }>(answer).invalid_params;
      if (typeof expected[0] === 'string') {
        expect(problems.map((problem) => problem.name).sort(), querystring).to.deep.equal(expected);
      } else expect(problems, querystring).to.deep.equal(expected);
    }
    expect(served.calls).to.deep.equal([]);
  });

  it("answers the gateway's errors as their problems, without the success headers", async () => {
    const cases = [
      {
        error: new SearchUnavailableError('timed out'),
        status: 503,
        retryAfter: '5',
        title: 'Service Unavailable',
      },
      {
        error: new SearchOverloadedError('queue full'),
        status: 503,
        retryAfter: '2',
        title: 'Service overloaded',
      },
      {
        error: new SearchTooLargeError(),
        status: 400,
        retryAfter: undefined,
        title: 'Invalid request parameters',
      },
      { error: new Error('a bug'), status: 500, retryAfter: undefined, title: 'Internal Server Error' },
    ];
    for (const { error, status, retryAfter, title } of cases) {
      const served = await serve({ search: failing(error) });
      const answer = await served.get('/api/v1/ppas?q=kahone');
      expect([answer.status, answer.headers['retry-after']], title).to.deep.equal([status, retryAfter]);
      expect(jsonOf(answer).title, title).to.equal(title);
      expect(answer.headers['cache-control'], title).to.equal('no-store');
      expect(answer.headers, title).to.not.have.any.keys('etag', 'link');
    }
  });
});
