// A statistics request's searches: one without group_by; with it, the first pages in the same search and the
// walks' next pages after it, until every walk has ended, within a bound.
import { expect } from 'chai';
import { BadRequestError } from '../../../../src/http/problem.js';
import { parseStatisticsQuery } from '../../../../src/params/statistics.js';
import {
  GROUP_PAGE_SIZE,
  GROUPS_AGGREGATION,
  PAIRS_AGGREGATION,
  type GroupBucket,
} from '../../../../src/queries/groupAggregations.js';
import { MAX_GROUP_PAGES, runStatistics } from '../../../../src/queries/statisticsPlan.js';
import { recordingGateway } from '../../../support/recordingGateway.js';

const bucket = (d0: string): GroupBucket => ({
  key: { d0 },
  doc_count: 1,
  capacity_mw: { value: 1 },
  annual_payment_obligation_usd: { value: null },
  guaranteed_amount_usd: { value: null },
  with_disclosed_amounts: { doc_count: 0 },
});
const page = (count: number, prefix: string) => ({
  buckets: Array.from({ length: count }, (_, i) => bucket(`${prefix}${i}`)),
  after_key: { d0: `${prefix}${count - 1}` },
});

describe('queries/statisticsPlan: the searches of a statistics request', () => {
  it('without group_by: the one search of the topics', async () => {
    const fake = recordingGateway({ search: () => ({ hits: { total: 0 }, aggregations: {} }) });
    const result = await runStatistics(parseStatisticsQuery('technology=wind'), fake.gateway);
    expect(fake.calls).to.have.length(1);
    expect(result.walks).to.equal(undefined);
    expect(Object.keys(fake.requests('search')[0]!.aggs ?? {})).to.not.include(GROUPS_AGGREGATION);
  });

  it('with a pivot: the first pages beside the topics, then each walk until its short page, filtered alike', async () => {
    const fake = recordingGateway({
      search: (request, _options, nth) => {
        const aggs = request.aggs ?? {};
        const answer: Record<string, unknown> = {};
        if (GROUPS_AGGREGATION in aggs)
          answer[GROUPS_AGGREGATION] = nth === 0 ? page(GROUP_PAGE_SIZE, 'g') : page(3, 'h');
        if (PAIRS_AGGREGATION in aggs) answer[PAIRS_AGGREGATION] = page(2, 'p');
        return { hits: { total: 7 }, aggregations: answer };
      },
    });
    const result = await runStatistics(
      parseStatisticsQuery('country=gh&group_by=country,technology'),
      fake.gateway,
    );
    const [first, second] = fake.requests('search');
    expect(fake.calls).to.have.length(2);
    expect(Object.keys(first!.aggs ?? {})).to.include.members([
      'capacity_mw',
      GROUPS_AGGREGATION,
      PAIRS_AGGREGATION,
    ]);
    expect(Object.keys(second!.aggs ?? {})).to.deep.equal([GROUPS_AGGREGATION]);
    expect(second!.aggs?.[GROUPS_AGGREGATION]?.composite?.after).to.deep.equal({
      d0: `g${GROUP_PAGE_SIZE - 1}`,
    });
    expect(second!.query).to.deep.equal(first!.query);
    expect(second).to.include({ size: 0, track_total_hits: false });
    // The pages share the first search's deadline.
    const [firstOptions, secondOptions] = fake.calls.map((call) => call.options);
    expect(firstOptions?.startedAt).to.be.a('number');
    expect(secondOptions?.startedAt).to.equal(firstOptions?.startedAt);
    expect(result.walks?.get(GROUPS_AGGREGATION)).to.have.length(GROUP_PAGE_SIZE + 3);
    expect(result.walks?.get(PAIRS_AGGREGATION)).to.have.length(2);
  });

  it('refuses a roll-up past its bound with a 400 naming group_by', async () => {
    const fake = recordingGateway({
      search: () => ({
        hits: { total: 1 },
        aggregations: { [GROUPS_AGGREGATION]: page(GROUP_PAGE_SIZE, 'g') },
      }),
    });
    const failure = await runStatistics(parseStatisticsQuery('group_by=developer'), fake.gateway).catch(
      (e: unknown) => e,
    );
    expect(failure).to.be.instanceOf(BadRequestError);
    expect((failure as BadRequestError).invalidParams?.[0]?.name).to.equal('group_by');
    expect(fake.calls).to.have.length(MAX_GROUP_PAGES);
  });
});
