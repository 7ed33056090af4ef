// GET /api/v1/ppas/suggest: one search of what was typed (limit as its size, only the fields a suggestion shows),
// the names in the gateway's order with their URLs, highlights only when asked, the answer keyed by the base and
// the parsed query. Driven through Koa in-process over a recording gateway; the search's body is
// suggestSearch's, the ranking the relevance bench's.
import { expect } from 'chai';
import { OVERLOADED_PROBLEM_TYPE } from '../../../../src/http/problem.js';
import { OPERATIONS } from '../../../../src/operations/catalog.js';
import { suggestPpas } from '../../../../src/operations/suggestPpas.js';
import { SearchOverloadedError } from '../../../../src/gateway/searchErrors.js';
import type { SuggestSource } from '../../../../src/present/suggest.js';
import { jsonOf } from '../../../support/koaServer.js';
import { cachedAnswers } from '../../../support/operationDeps.js';
import { didYouMeanSearch, failing, searchResponse } from '../../../support/recordingGateway.js';
import { operationServers } from '../../../support/servedOperations.js';
import { liveStateOf } from '../../../support/liveState.js';

const names: SuggestSource[] = [
  { slug: 'kahone-solar', project_name: 'Kahone Solar', technology: 'solar_pv', country_code: 'SN' },
  { slug: 'kahone-2', project_name: 'Kahone 2', technology: 'solar_pv', country_code: null },
];

type Suggestion = Record<string, unknown>;

describe('operations/suggestPpas: GET /api/v1/ppas/suggest', () => {
  const serve = operationServers([suggestPpas]);
  const serveAll = operationServers(OPERATIONS);
  const suggest = () => searchResponse(names);

  it('asks one search of what was typed, limit as its size, and answers the names in its order', async () => {
    const served = await serve({ search: suggest });
    const answer = await served.get('/api/v1/ppas/suggest?q=%20Kah%20&limit=3');
    expect(answer.status).to.equal(200);
    expect(answer.headers['cache-control']).to.equal('public, max-age=60');
    const [request, ...more] = served.requests('search');
    expect(more).to.deep.equal([]);
    expect([request?.size, request?._source]).to.deep.equal([
      3,
      ['slug', 'project_name', 'technology', 'country_code'],
    ]);
    expect(JSON.stringify(request?.query)).to.include('"kah"');
    const base = served.server.base;
    expect(jsonOf<{ data: Suggestion[] }>(answer).data).to.deep.equal([
      { ...names[0], url: `${base}/api/v1/ppas/kahone-solar` },
      { ...names[1], url: `${base}/api/v1/ppas/kahone-2` },
    ]);
  });

  it('offers did_you_mean when nothing is suggested, in one round trip more; none with suggestions (issue 69)', async () => {
    const liveState = liveStateOf({
      liveGeneration: async () => 'ppas-1@0',
      vocabularyPage: async () => ({ words: [['kahone', 2]], after: undefined }),
    });
    await liveState.watchVocabulary().read();
    try {
      const empty = await serve({ search: didYouMeanSearch(2) }, { liveState });
      const body = jsonOf<{ data: Suggestion[]; did_you_mean?: unknown }>(
        await empty.get('/api/v1/ppas/suggest?q=kahone%20zorblat&limit=3'),
      );
      expect(body.data).to.deep.equal([]);
      expect(body.did_you_mean).to.deep.equal({
        q: 'kahone',
        total: 2,
        url: `${empty.server.base}/api/v1/ppas/suggest?limit=3&q=kahone`,
      });
      // The suggestions, then the likeliest rewrite counted in one size-0 search (a filter aggregation).
      const searches = empty.requests('search') as unknown as { size: number; aggs: object }[];
      expect(searches).to.have.length(2);
      expect(searches[1]).to.include({ size: 0 }).and.to.have.nested.property('aggs.first.filter');
      const found = await serve({ search: suggest }, { liveState });
      const suggested = jsonOf<{ data: Suggestion[] }>(await found.get('/api/v1/ppas/suggest?q=kah'));
      expect(suggested).to.not.have.property('did_you_mean');
      expect(found.calls.map((call) => call.method)).to.deep.equal(['search']);
    } finally {
      liveState.close();
    }
  });
  it('marks what matched in each name only when asked', async () => {
    const served = await serve({ search: suggest });
    const asked = jsonOf<{ data: Suggestion[] }>(
      await served.get('/api/v1/ppas/suggest?q=kah&highlight=true'),
    );
    // The word being typed marks the name word it starts.
    expect(asked.data.map((suggestion) => suggestion.highlights)).to.deep.equal([
      { project_name: [[0, 6]] },
      { project_name: [[0, 6]] },
    ]);
    const plain = jsonOf<{ data: Suggestion[] }>(
      await served.get('/api/v1/ppas/suggest?q=kah&highlight=false'),
    );
    expect(plain.data[0]).to.not.have.property('highlights');
  });

  it('keys its answer by the base and the parsed query: defaults and blanks aside, one search per host', async () => {
    const served = await serve({ search: suggest }, { answer: cachedAnswers() });
    const first = await served.get('/api/v1/ppas/suggest?q=kah');
    const again = await served.get('/api/v1/ppas/suggest?limit=10&q=kah%20&highlight=');
    expect(again.body.equals(first.body)).to.equal(true);
    expect(served.calls).to.have.length(1);
    const elsewhere = await served.get('/api/v1/ppas/suggest?q=kah', {
      headers: { Host: 'mirror.example.org' },
    });
    expect(served.calls).to.have.length(2);
    expect(jsonOf<{ data: Suggestion[] }>(elsewhere).data[0]?.url).to.equal(
      'http://mirror.example.org/api/v1/ppas/kahone-solar',
    );
  });

  it('refuses a missing q, a limit out of bounds and the list’s filters with a 400 naming each, without a search', async () => {
    const served = await serveAll();
    const answer = await served.get('/api/v1/ppas/suggest?limit=21&technology=wind');
    expect(answer.status).to.equal(400);
    expect(jsonOf<{ invalid_params: unknown[] }>(answer).invalid_params).to.deep.equal([
      { name: 'q', reason: 'is required' },
      {
        name: 'technology',
        reason:
          'is not a parameter of GET /api/v1/ppas/suggest (suggestions read what is typed so far, in q)',
      },
      { name: 'limit', reason: 'must be between 1 and 20' },
    ]);
    const long = await served.get(`/api/v1/ppas/suggest?q=${'a'.repeat(101)}`);
    expect(jsonOf<{ invalid_params: { name: string }[] }>(long).invalid_params[0]?.name).to.equal('q');
    expect(served.calls).to.deep.equal([]);
  });

  it('answers a search refused for overload as the overload problem', async () => {
    const served = await serve({ search: failing(new SearchOverloadedError('queue full')) });
    const answer = await served.get('/api/v1/ppas/suggest?q=kah');
    expect([answer.status, answer.headers['retry-after'], jsonOf(answer).type]).to.deep.equal([
      503,
      '2',
      OVERLOADED_PROBLEM_TYPE,
    ]);
  });
});
