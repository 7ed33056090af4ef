import { expect } from 'chai';
import { roundTo } from '../../../../src/present/rounding.js';
import { presentStatistics } from '../../../../src/present/statistics.js';
import type { StatisticsAggregations } from '../../../../src/queries/statisticsSearch.js';

function statsResponse(total: number, aggregations: StatisticsAggregations) {
  return {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, failed: 0 },
    hits: { total: { value: total, relation: 'eq' as const }, hits: [] },
    aggregations,
  };
}

const sum = (value: number | null) => ({ value });

const bucket = (key: string | number, docCount: number, capacity: number) => ({
  key,
  doc_count: docCount,
  capacity_mw: sum(capacity),
});

describe('api present: statistics', () => {
  it('rounds, orders and shares as the contract says', () => {
    const body = presentStatistics(
      statsResponse(6, {
        capacity_mw: sum(300.04),
        by_technology: {
          buckets: [bucket('wind', 2, 100), bucket('hydro', 1, 100), bucket('solar_pv', 3, 100.04)],
          sum_other_doc_count: 0,
        },
        // The records without a year come in the -1 bucket (by_year's `missing`).
        by_year: {
          buckets: [bucket(2020, 2, 100), bucket(-1, 1, 50), bucket(2001, 3, 150.04)],
          sum_other_doc_count: 0,
        },
        annual_payment_obligation_usd: sum(1234567.5),
        guaranteed_amount_usd: sum(0),
        with_disclosed_amounts: { doc_count: 3 },
        by_risk_feature: {
          buckets: [
            bucket('government_guarantee', 2, 100),
            bucket('take_or_pay', 1, 1),
            bucket('fx_indexed', 1, 1),
          ],
          sum_other_doc_count: 0,
        },
        by_tariff: {
          buckets: [bucket('energy_only', 3, 1), bucket('availability_based', 3, 2)],
          sum_other_doc_count: 0,
        },
        flags_raised: {
          buckets: [
            { ...bucket('tariff_outlier', 1, 20.04), guaranteed_amount_usd: sum(null) },
            { ...bucket('single_bid', 2, 100.05), guaranteed_amount_usd: sum(1500.5) },
          ],
          sum_other_doc_count: 0,
        },
        // Of the 6: every code undecidable on all but contract_not_published (decided on all 6), single_bid
        // (on 4) and tariff_outlier (on 1).
        flags_undecidable: {
          buckets: [
            { key: 'no_competition', doc_count: 6 },
            { key: 'short_tender', doc_count: 6 },
            { key: 'award_before_tender_close', doc_count: 6 },
            { key: 'signed_before_award', doc_count: 6 },
            { key: 'late_disclosure', doc_count: 6 },
            { key: 'guarantee_without_competition', doc_count: 6 },
            { key: 'tariff_outlier', doc_count: 5 },
            { key: 'single_bid', doc_count: 2 },
          ],
          sum_other_doc_count: 0,
        },
        flags_unevaluated: { doc_count: 0 },
        live_index: { buckets: [{ key: 'ppas-20261122t041530123z', doc_count: 6 }] },
      }),
    );
    // Every code in the table's order; coverage to 3 decimals; fiscal_exposure's rounding.
    expect(body.data.flags.map((entry) => entry.code)).to.deep.equal([
      'single_bid',
      'no_competition',
      'short_tender',
      'award_before_tender_close',
      'signed_before_award',
      'late_disclosure',
      'contract_not_published',
      'tariff_outlier',
      'guarantee_without_competition',
    ]);
    expect(body.data.flags[0]).to.deep.equal({
      code: 'single_bid',
      raised: 2,
      computable: 4,
      coverage: 0.667,
      capacity_mw: 100.1,
      guaranteed_amount_usd: 1501,
    });
    expect(body.data.flags[1]).to.deep.equal({
      code: 'no_competition',
      raised: 0,
      computable: 0,
      coverage: 0,
      capacity_mw: 0,
      guaranteed_amount_usd: 0,
    });
    expect(body.data.flags[6]).to.include({ raised: 0, computable: 6, coverage: 1 });
    expect(body.data.flags[7]).to.deep.equal({
      code: 'tariff_outlier',
      raised: 1,
      computable: 1,
      coverage: 0.167,
      capacity_mw: 20,
      guaranteed_amount_usd: 0,
    });
    expect(body.meta).to.deep.equal({ generated_at: '2026-11-22T04:15:30.123Z' });
    expect(body.data.totals).to.deep.equal({ ppas: 6, capacity_mw: 300 });
    expect(body.data.capacity_by_technology).to.deep.equal([
      { technology: 'hydro', ppas: 1, capacity_mw: 100, share: 0.3333 },
      { technology: 'solar_pv', ppas: 3, capacity_mw: 100, share: 0.3334 },
      { technology: 'wind', ppas: 2, capacity_mw: 100, share: 0.3333 },
    ]);
    expect(body.data.capacity_by_year).to.deep.equal([
      { year: 2001, ppas: 3, capacity_mw: 150 },
      { year: 2020, ppas: 2, capacity_mw: 100 },
      { year: null, ppas: 1, capacity_mw: 50 },
    ]);
    expect(body.data.fiscal_exposure).to.deep.equal({
      government_guarantee: { ppas: 2, capacity_mw: 100, share_of_capacity: 0.3333 },
      take_or_pay: { ppas: 1, capacity_mw: 1, share_of_capacity: 0.0033 },
      annual_payment_obligation_usd: 1234568,
      guaranteed_amount_usd: 0,
      ppas_with_disclosed_amounts: 3,
      by_risk_feature: [
        { risk_feature: 'government_guarantee', ppas: 2, capacity_mw: 100 },
        { risk_feature: 'fx_indexed', ppas: 1, capacity_mw: 1 },
        { risk_feature: 'take_or_pay', ppas: 1, capacity_mw: 1 },
      ],
    });
    expect(body.data.tariff_mix).to.deep.equal([
      { tariff: 'availability_based', ppas: 3, capacity_mw: 2, share: 0.5 },
      { tariff: 'energy_only', ppas: 3, capacity_mw: 1, share: 0.5 },
    ]);
  });

  it('an empty subset gives zeros and empty lists, never NaN or 0-PPA buckets', () => {
    const empty = { buckets: [], sum_other_doc_count: 0 };
    const body = presentStatistics(
      statsResponse(0, {
        capacity_mw: sum(0),
        by_technology: empty,
        by_year: empty,
        annual_payment_obligation_usd: sum(0),
        guaranteed_amount_usd: sum(null),
        with_disclosed_amounts: { doc_count: 0 },
        by_risk_feature: empty,
        by_tariff: empty,
        flags_raised: empty,
        flags_undecidable: empty,
        flags_unevaluated: { doc_count: 0 },
        live_index: empty,
      }),
    );
    expect(body.data.flags).to.have.length(9);
    for (const entry of body.data.flags) {
      expect(entry, entry.code).to.deep.equal({
        code: entry.code,
        raised: 0,
        computable: 0,
        coverage: 0,
        capacity_mw: 0,
        guaranteed_amount_usd: 0,
      });
    }
    expect(body).to.deep.equal({
      data: {
        totals: { ppas: 0, capacity_mw: 0 },
        capacity_by_technology: [],
        capacity_by_year: [],
        fiscal_exposure: {
          government_guarantee: { ppas: 0, capacity_mw: 0, share_of_capacity: 0 },
          take_or_pay: { ppas: 0, capacity_mw: 0, share_of_capacity: 0 },
          annual_payment_obligation_usd: 0,
          guaranteed_amount_usd: 0,
          ppas_with_disclosed_amounts: 0,
          by_risk_feature: [],
        },
        tariff_mix: [],
        flags: body.data.flags,
      },
      meta: { generated_at: null },
    });
  });

  it('refuses to present incomplete buckets', () => {
    const none = { buckets: [], sum_other_doc_count: 0 };
    const response = statsResponse(1, {
      capacity_mw: sum(1),
      by_technology: { buckets: [], sum_other_doc_count: 1 },
      by_year: none,
      annual_payment_obligation_usd: sum(0),
      guaranteed_amount_usd: sum(0),
      with_disclosed_amounts: { doc_count: 0 },
      by_risk_feature: none,
      by_tariff: none,
      flags_raised: none,
      flags_undecidable: none,
      flags_unevaluated: { doc_count: 0 },
      live_index: none,
    });
    expect(() => presentStatistics(response)).to.throw(/more values/);
  });

  it('rounds half up without binary artefacts', () => {
    expect(roundTo(1.005, 2)).to.equal(1.01);
    expect(roundTo(0.05, 1)).to.equal(0.1);
    expect(roundTo(2 / 3, 4)).to.equal(0.6667);
    expect(roundTo(1e21, 0)).to.equal(1e21);
    expect(roundTo(1e-7, 1)).to.equal(0);
  });

  it('rounds exactly as shifting the decimal point in the text does, on the fast path too', () => {
    // The reference: the text method alone (what roundTo did for every value before its fast path).
    const byText = (value: number, decimals: number) => {
      const shifted = Number(`${value}e${decimals}`);
      return Number.isNaN(shifted)
        ? Math.round(value * 10 ** decimals) / 10 ** decimals
        : Number(`${Math.round(shifted)}e-${decimals}`);
    };
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      values.push(random() * 10 ** Math.floor(random() * 13)); // 0 … 1e12: shares, MW, USD
      // Decimal halves and their neighbours, where binary products go astray (1.005 * 100 = 100.4999…).
      const half = (Math.floor(random() * 1e6) + 0.5) / 10 ** Math.floor(random() * 5);
      values.push(half, half + 1e-12, half - 1e-12);
    }
    for (const value of values) {
      for (const decimals of [0, 1, 4]) {
        const expected = byText(value, decimals);
        if (roundTo(value, decimals) !== expected) {
          expect.fail(
            `roundTo(${value}, ${decimals}) = ${roundTo(value, decimals)}, the text method: ${expected}`,
          );
        }
      }
    }
  });
});
