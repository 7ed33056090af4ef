// GET /api/v1/ppas/statistics: one size-0 search of the list's filters, its aggregations answered as the
// statistics body, the answer keyed by the parsed filters alone (the body holds no URL), and the 400s of paging
// and sorting. Driven through Koa in-process over a recording gateway; the arithmetic is statistics.test.ts's.
import { expect } from 'chai';
import { OPERATIONS } from '../../../../src/operations/catalog.js';
import { ppaStatistics } from '../../../../src/operations/ppaStatistics.js';
import { SearchUnavailableError } from '../../../../src/gateway/searchErrors.js';
import type { StatisticsAggregations } from '../../../../src/queries/statisticsSearch.js';
import { jsonOf } from '../../../support/koaServer.js';
import { cachedAnswers } from '../../../support/operationDeps.js';
import { failing, filterClauses, searchResponse } from '../../../support/recordingGateway.js';
import { operationServers } from '../../../support/servedOperations.js';

const terms = (buckets: [string | number, number, number][], sumOther = 0) => ({
  buckets: buckets.map(([key, docCount, capacity]) => ({
    key,
    doc_count: docCount,
    capacity_mw: { value: capacity },
  })),
  sum_other_doc_count: sumOther,
});

/** Two wind PPAs of 2012, 120.04 MW together, one with a government guarantee. */
const aggregations = (byTechnologyOthers = 0): StatisticsAggregations => ({
  capacity_mw: { value: 120.04 },
  by_technology: terms([['wind', 2, 120.04]], byTechnologyOthers),
  by_year: terms([[2012, 2, 120.04]]),
  annual_payment_obligation_usd: { value: 1_500_000.4 },
  guaranteed_amount_usd: { value: null },
  with_disclosed_amounts: { doc_count: 1 },
  by_risk_feature: terms([['government_guarantee', 1, 30]]),
  by_tariff: terms([['energy_only', 2, 120.04]]),
  flags_raised: {
    buckets: [
      { key: 'single_bid', doc_count: 1, capacity_mw: { value: 30 }, guaranteed_amount_usd: { value: null } },
    ],
    sum_other_doc_count: 0,
  },
  flags_undecidable: { buckets: [{ key: 'tariff_outlier', doc_count: 2 }], sum_other_doc_count: 0 },
  flags_unevaluated: { doc_count: 0 },
  live_index: { buckets: [{ key: 'ppas-20261122t041530123z', doc_count: 2 }] },
});

const statistics =
  (others = 0) =>
  () =>
    searchResponse([], { total: 2, aggregations: aggregations(others) });

interface StatisticsBody {
  data: {
    totals: unknown;
    capacity_by_technology: unknown[];
    fiscal_exposure: Record<string, unknown>;
  };
  meta: { generated_at: string | null };
}

describe('operations/ppaStatistics: GET /api/v1/ppas/statistics', () => {
  const serve = operationServers([ppaStatistics]);
  const serveAll = operationServers(OPERATIONS);

  it('asks one size-0 search of the filters and answers its aggregations as the statistics', async () => {
    const served = await serve({ search: statistics() });
    const answer = await served.get('/api/v1/ppas/statistics?technology=wind&year=2010..2015');
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).to.equal('public, max-age=60');
    expect(answer.headers.etag).to.match(/^"[A-Za-z0-9_-]+"$/);
    expect(served.calls.map((call) => call.method)).to.deep.equal(['search']);
    const [request] = served.requests('search');
    expect([request?.size, request?.track_total_hits]).to.deep.equal([0, true]);
    expect(filterClauses(request)).to.deep.include.members([
      { term: { active: true } },
      { terms: { technology: ['wind'] } },
      { range: { financial_close_year: { gte: 2010, lte: 2015 } } },
    ]);
    expect(request?.aggs).to.include.all.keys('by_technology', 'by_year', 'live_index');

    const body = jsonOf<StatisticsBody>(answer);
    expect(body.data.totals).to.deep.equal({ ppas: 2, capacity_mw: 120 });
    expect(body.data.capacity_by_technology).to.deep.equal([
      { technology: 'wind', ppas: 2, capacity_mw: 120, share: 1 },
    ]);
    expect(body.data.fiscal_exposure.annual_payment_obligation_usd).to.equal(1_500_000);
    expect(body.meta).to.deep.equal({ generated_at: '2026-11-22T04:15:30.123Z' });
  });

  it('keys its answer by the filters alone: the same filters written otherwise, or asked on another host, are one search', async () => {
    const served = await serve({ search: statistics() }, { answer: cachedAnswers() });
    const first = await served.get('/api/v1/ppas/statistics?technology=wind&country=zm');
    const again = await served.get('/api/v1/ppas/statistics?country=ZM&developer=%20&technology=wind');
    const elsewhere = await served.get('/api/v1/ppas/statistics?country=ZM&technology=wind', {
      headers: { Host: 'mirror.example.org' },
    });
    expect([first.status, again.status, elsewhere.status]).to.deep.equal([200, 200, 200]);
    expect(served.calls).to.have.length(1);
    expect(elsewhere.body.equals(first.body)).to.equal(true);
    await served.get('/api/v1/ppas/statistics?country=ZM');
    expect(served.calls).to.have.length(2);
  });

  it('refuses paging and sorting with a 400 naming each, without a search', async () => {
    const served = await serveAll();
    const answer = await served.get('/api/v1/ppas/statistics?page=2&per_page=10&sort=recent&year=1800');
    expect(answer.status).to.equal(400);
    const problems = jsonOf<{ invalid_params: { name: string; reason: string }[] }>(answer).invalid_params;
    const reason =
      'is not a parameter of GET /api/v1/ppas/statistics (statistics are neither paginated nor sorted (group_sort orders the groups))';
    expect(
      problems.filter((problem) => problem.reason === reason).map((problem) => problem.name),
    ).to.deep.equal(['page', 'per_page', 'sort']);
    expect(problems.map((problem) => problem.name)).to.include('year');
    expect(served.calls).to.deep.equal([]);
  });

  it('answers an outage as a 503, and an incomplete aggregation as a 500 rather than wrong numbers', async () => {
    const down = await serve({ search: failing(new SearchUnavailableError('timed out')) });
    const outage = await down.get('/api/v1/ppas/statistics');
    expect([outage.status, outage.headers['retry-after']]).to.deep.equal([503, '5']);
    const incomplete = await serve({ search: statistics(3) });
    const failed = await incomplete.get('/api/v1/ppas/statistics');
    expect([failed.status, failed.headers['cache-control']]).to.deep.equal([500, 'no-store']);
    expect(jsonOf(failed).detail).to.equal('The server failed to answer this request.');
  });
});
