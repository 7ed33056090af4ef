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

  const ONE_PASS = 'roll_up_groups_one_pass';
  /** A terms answer of `count` groups; `leftOut`: documents of keys it did not hold. */
  const onePass = (count: number, leftOut = 0) => ({
    sum_other_doc_count: leftOut,
    doc_count_error_upper_bound: 0,
    buckets: [
      ...page(count, 'g').buckets.map((bucket) => ({ ...bucket, key: bucket.key.d0 })),
      { ...bucket('x'), key: '' },
    ],
  });

  it('asks the groups in one pass beside the topics and uses them when nothing was left out, the PPAs without a value as null', async () => {
    const fake = recordingGateway({
      search: () => ({ hits: { total: 7 }, aggregations: { [ONE_PASS]: onePass(3) } }),
    });
    const result = await runStatistics(
      parseStatisticsQuery('technology=wind&group_by=developer'),
      fake.gateway,
    );
    expect(fake.calls).to.have.length(1);
    const terms = fake.requests('search')[0]!.aggs?.[ONE_PASS]?.terms;
    expect(terms).to.deep.include({ field: 'group_developer', missing: '' });
    expect(terms?.size).to.equal(terms?.shard_size);
    const groups = result.walks?.get(GROUPS_AGGREGATION) ?? [];
    expect(groups.map((group) => group.key.d0)).to.deep.equal(['g0', 'g1', 'g2', null]);
  });

  it('with a pivot, or when the one pass left keys out: each walk until its short page, filtered alike', async () => {
    const fake = recordingGateway({
      search: (request, _options, nth) => {
        const aggs = request.aggs ?? {};
        const answer: Record<string, unknown> = {};
        if (ONE_PASS in aggs) answer[ONE_PASS] = onePass(5, 12);
        if (GROUPS_AGGREGATION in aggs)
          answer[GROUPS_AGGREGATION] = nth === 1 ? page(GROUP_PAGE_SIZE, 'g') : page(3, 'h');
        if (PAIRS_AGGREGATION in aggs) answer[PAIRS_AGGREGATION] = page(2, 'p');
        return { hits: { total: 7 }, aggregations: answer };
      },
    });
    const result = await runStatistics(
      parseStatisticsQuery('country=gh&group_by=country,technology'),
      fake.gateway,
    );
    const [first, second, third] = fake.requests('search');
    expect(fake.calls).to.have.length(3);
    expect(Object.keys(first!.aggs ?? {})).to.include.members(['capacity_mw', ONE_PASS, PAIRS_AGGREGATION]);
    expect(Object.keys(first!.aggs ?? {})).to.not.include(GROUPS_AGGREGATION);
    // The one pass left keys out: the groups are walked from the start.
    expect(Object.keys(second!.aggs ?? {})).to.deep.equal([GROUPS_AGGREGATION]);
    expect(second!.aggs?.[GROUPS_AGGREGATION]?.composite).to.not.have.property('after');
    expect(third!.aggs?.[GROUPS_AGGREGATION]?.composite?.after).to.deep.equal({
      d0: `g${GROUP_PAGE_SIZE - 1}`,
    });
    expect(second!.query).to.deep.equal(first!.query);
    expect(second).to.include({ size: 0, track_total_hits: false });
    // The searches share the first one's deadline.
    const startedAts = fake.calls.map((call) => call.options?.startedAt);
    expect(startedAts[0]).to.be.a('number');
    expect(new Set(startedAts).size).to.equal(1);
    expect(result.walks?.get(GROUPS_AGGREGATION)).to.have.length(GROUP_PAGE_SIZE + 3);
    expect(result.walks?.get(PAIRS_AGGREGATION)).to.have.length(2);
  });

  it('refuses a roll-up past its bound with a 400 naming group_by', async () => {
    const fake = recordingGateway({
      search: () => ({
        hits: { total: 1 },
        aggregations: { [ONE_PASS]: onePass(1, 99), [GROUPS_AGGREGATION]: page(GROUP_PAGE_SIZE, 'g') },
      }),
    });
    const failure = await runStatistics(
      parseStatisticsQuery('q=solar&group_by=developer'),
      fake.gateway,
    ).catch((e: unknown) => e);
    expect(failure).to.be.instanceOf(BadRequestError);
    expect((failure as BadRequestError).invalidParams?.[0]?.name).to.equal('group_by');
    expect(fake.calls).to.have.length(MAX_GROUP_PAGES);
  });

  it('a counterparty over the whole active set: the parties’ groups beside the topics and the null group', async () => {
    const role = {
      key: 'Senelec',
      group_key: 'senelec',
      ppas: 2,
      capacity_mw: 3,
      annual_payment_obligation_usd: 0,
    };
    const fake = recordingGateway({
      search: () => ({ hits: { total: 7 }, aggregations: { roll_up_null_group: bucket('') } }),
      searchParties: () => ({
        _shards: { total: 1 },
        hits: { total: { value: 1 }, hits: [{ _source: { id: 'senelec', by_role: { offtaker: role } } }] },
        aggregations: { ppas: { value: 2 }, capacity_mw: { value: 3 } },
      }),
    });
    const result = await runStatistics(parseStatisticsQuery('group_by=offtaker&group_limit=5'), fake.gateway);
    expect(fake.calls.map((call) => call.method).sort()).to.deep.equal(['search', 'searchParties']);
    expect(fake.requests('search')[0]!.aggs).to.have.property('roll_up_null_group');
    const parties = fake.requests('searchParties')[0]!;
    expect(parties.size).to.equal(5);
    expect(parties.sort).to.deep.equal([
      { 'by_role.offtaker.rounded.capacity_mw': 'desc' },
      { 'by_role.offtaker.group_key': 'asc' },
    ]);
    expect(result.walks).to.equal(undefined);
    expect(result.parties?.groups.groups).to.deep.equal([{ id: 'senelec', group: role }]);
    expect(result.parties?.groups.total).to.equal(1);
    expect(result.parties?.nullGroup.doc_count).to.equal(1);
  });

  it('groups the PPAs when the served generation has no parties, or the selection is narrower', async () => {
    const fake = recordingGateway({
      search: () => ({
        hits: { total: 7 },
        aggregations: { [ONE_PASS]: onePass(2), roll_up_null_group: bucket('') },
      }),
      searchParties: () => ({ _shards: { total: 0 }, hits: { total: { value: 0 }, hits: [] } }),
    });
    const older = await runStatistics(parseStatisticsQuery('group_by=developer'), fake.gateway);
    expect(older.parties).to.equal(undefined);
    expect(older.walks?.get(GROUPS_AGGREGATION)).to.have.length(3);
    const narrower = recordingGateway({
      search: () => ({ hits: { total: 7 }, aggregations: { [ONE_PASS]: onePass(2) } }),
    });
    await runStatistics(parseStatisticsQuery('country=gh&group_by=developer'), narrower.gateway);
    expect(narrower.calls.map((call) => call.method)).to.deep.equal(['search']);
  });
});
