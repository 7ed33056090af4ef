import { expect } from 'chai';
import type { estypes } from '@elastic/elasticsearch';
import { parseListQuery } from '../../src/params/list.js';
import { linkHeader, pageUrl, presentList } from '../../src/present/list.js';
import { presentListItem, presentPpa, utcTimestamp } from '../../src/present/ppa.js';
import { presentStatistics, roundTo } from '../../src/present/statistics.js';
import type { DetailSource, ListSource } from '../../src/search/document.js';
import type { StatisticsAggregations } from '../../src/search/statisticsSearch.js';

const BASE = 'https://api.example.org';

const listSource: ListSource = {
  slug: 'kahone-solar',
  project_name: 'Kahone Solar',
  developer: 'Engie / Meridiam',
  reference_code: 'SN-SOL-2018-001',
  location: 'Kaolack, Senegal',
  country_code: 'SN',
  technology: 'solar_pv',
  tariff: 'energy_only',
  capacity_mw: 60,
  financial_close_year: 2018,
  risk_features: ['government_guarantee'],
  published_at: '2024-03-01T12:00:00Z',
  updated_at: '2024-06-02T08:30:00.000Z',
};

function listResponse(total: number, sources: ListSource[]): estypes.SearchResponse<ListSource> {
  return {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, failed: 0 },
    hits: {
      total: { value: total, relation: 'eq' },
      hits: sources.map((s) => ({ _index: 'i', _id: s.slug, _source: s })),
    },
  };
}

describe('api present: PPA', () => {
  it('a list item has exactly the contract fields plus url', () => {
    expect(presentListItem(listSource, `${BASE}/`)).to.deep.equal({
      ...listSource,
      updated_at: '2024-06-02T08:30:00Z',
      url: 'https://api.example.org/api/v1/ppas/kahone-solar',
    });
  });

  it('the detail has every key, nulls for unknowns, versions newest first, documents as listed', () => {
    const source = {
      ...listSource,
      country_code: null,
      financial_close_year: null,
      active: false,
      offtaker: { name: 'Senelec' },
      contract: null,
      fiscal: { annual_payment_obligation_usd: 4_900_000, guaranteed_amount_usd: null },
      procurement: { method: 'competitive_tender', extra: 'not shown' },
      versions: [
        { version: 1, date: '2018-04-05', summary: 'Initial publication' },
        { version: 3, date: '2019-02-01', summary: null },
        { version: 2, date: '2019-02-01', summary: 'COD extended' },
        { version: 4, date: null, summary: 'undated' },
      ],
      documents: [
        { title: 'B', url: 'https://example.org/b.pdf' },
        {
          title: 'A',
          document_type: 'contractSigned',
          url: null,
          published_on: '2018-06-01',
          format: 'application/pdf',
          language: 'fr',
        },
      ],
    } as unknown as DetailSource;
    const detail = presentPpa(source, BASE);
    expect(detail.active).to.equal(false);
    expect(detail.country_code).to.equal(null);
    expect(detail.financial_close_year).to.equal(null);
    expect(detail.offtaker).to.deep.equal({ name: 'Senelec', type: null });
    expect(detail.contract).to.deep.equal({
      signed_date: null,
      term_years: null,
      cod_date: null,
      currency: null,
      energy_rate_per_kwh: null,
      capacity_rate_per_kw_month: null,
    });
    expect(detail.fiscal).to.deep.equal({
      annual_payment_obligation_usd: 4_900_000,
      guaranteed_amount_usd: null,
      termination_payment_usd: null,
    });
    expect(detail.procurement).to.deep.equal({
      method: 'competitive_tender',
      method_details: null,
      number_of_bidders: null,
      tender_start: null,
      tender_end: null,
      award_date: null,
      procuring_entity: null,
    });
    expect(detail.versions.map((v) => v.version)).to.deep.equal([3, 2, 1, 4]);
    expect(detail.documents).to.deep.equal([
      {
        title: 'B',
        document_type: null,
        url: 'https://example.org/b.pdf',
        published_on: null,
        format: null,
        language: null,
      },
      {
        title: 'A',
        document_type: 'contractSigned',
        url: null,
        published_on: '2018-06-01',
        format: 'application/pdf',
        language: 'fr',
      },
    ]);
    expect(presentPpa({ ...source, versions: [], documents: [] } as DetailSource, BASE)).to.include.keys(
      'versions',
      'documents',
    );
  });

  it('timestamps are ISO 8601 UTC with Z', () => {
    expect(utcTimestamp('2024-03-01T14:00:00+02:00')).to.equal('2024-03-01T12:00:00Z');
    expect(utcTimestamp('2024-03-01T12:00:00.250Z')).to.equal('2024-03-01T12:00:00.250Z');
    expect(utcTimestamp(null)).to.equal(null);
  });
});

describe('api present: list, meta and links', () => {
  const request = (querystring: string, base = BASE) => ({
    query: parseListQuery(querystring),
    querystring,
    base,
  });

  it('meta and links in the middle of the results', () => {
    const { body, linkHeader: header } = presentList(
      listResponse(137, [listSource]),
      request('technology=solar_pv&page=2&q=x'),
    );
    expect(body.meta).to.deep.equal({ total: 137, page: 2, per_page: 25, total_pages: 6, sort: 'relevance' });
    expect(body.links).to.deep.equal({
      self: `${BASE}/api/v1/ppas?technology=solar_pv&page=2&q=x`,
      first: `${BASE}/api/v1/ppas?technology=solar_pv&page=1&q=x`,
      prev: `${BASE}/api/v1/ppas?technology=solar_pv&page=1&q=x`,
      next: `${BASE}/api/v1/ppas?technology=solar_pv&page=3&q=x`,
      last: `${BASE}/api/v1/ppas?technology=solar_pv&page=6&q=x`,
    });
    expect(header).to.equal(
      [
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=2&q=x>; rel="self"`,
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=1&q=x>; rel="first"`,
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=1&q=x>; rel="prev"`,
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=3&q=x>; rel="next"`,
        `<${BASE}/api/v1/ppas?technology=solar_pv&page=6&q=x>; rel="last"`,
      ].join(', '),
    );
  });

  it('next is null at the edge of the 10,000-result paging window, so following next never meets a 400', () => {
    const edge = presentList(listResponse(50_000, []), request('per_page=100&page=100')).body;
    expect(edge.meta.total_pages).to.equal(500);
    expect(edge.links.next).to.equal(null);
    expect(edge.links.last).to.equal(`${BASE}/api/v1/ppas?per_page=100&page=500`);
    const before = presentList(listResponse(50_000, []), request('per_page=100&page=99')).body;
    expect(before.links.next).to.equal(`${BASE}/api/v1/ppas?per_page=100&page=100`);
  });

  it('prev and next are null at the ends; empty results have total_pages 0 and last = page 1', () => {
    const first = presentList(listResponse(30, []), request('per_page=10')).body;
    expect(first.links.prev).to.equal(null);
    expect(first.links.next).to.equal(`${BASE}/api/v1/ppas?per_page=10&page=2`);
    expect(first.links.last).to.equal(`${BASE}/api/v1/ppas?per_page=10&page=3`);
    const last = presentList(listResponse(30, []), request('per_page=10&page=3')).body;
    expect(last.links.next).to.equal(null);
    const empty = presentList(listResponse(0, []), request('technology=none')).body;
    expect(empty).to.deep.include({
      data: [],
      meta: { total: 0, page: 1, per_page: 25, total_pages: 0, sort: 'recent' },
    });
    expect(empty.links).to.deep.include({
      prev: null,
      next: null,
      last: `${BASE}/api/v1/ppas?technology=none&page=1`,
    });
    const past = presentList(listResponse(30, []), request('per_page=10&page=9')).body;
    expect(past.links.next).to.equal(null);
    expect(past.links.prev).to.equal(`${BASE}/api/v1/ppas?per_page=10&page=8`);
  });

  it('links keep every other parameter exactly as sent', () => {
    const querystring =
      'q=S%C3%A3o+Jo%C3%A3o&risk_features[]=a&risk_features%5B%5D=b&page=&x=%7E&sort=name_asc';
    expect(pageUrl(request(querystring.replace('&x=%7E', '')), 4)).to.equal(
      `${BASE}/api/v1/ppas?q=S%C3%A3o+Jo%C3%A3o&risk_features[]=a&risk_features%5B%5D=b&page=4&sort=name_asc`,
    );
    // Characters a URL may not carry raw are encoded; an empty page counts as absent and is replaced.
    const raw = { query: parseListQuery(''), querystring: 'developer=a b<>"\u00e9&&page=', base: `${BASE}/` };
    expect(pageUrl(raw, 2)).to.equal(`${BASE}/api/v1/ppas?developer=a%20b%3C%3E%22%E9&page=2`);
    expect(linkHeader({ self: 's', first: 'f', prev: null, next: null, last: 'l' })).to.equal(
      '<s>; rel="self", <f>; rel="first", <l>; rel="last"',
    );
  });
});

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
        by_year: { buckets: [bucket(2020, 2, 100), bucket(2001, 3, 150.04)], sum_other_doc_count: 0 },
        without_year: { doc_count: 1, capacity_mw: sum(50) },
        government_guarantee: { doc_count: 2, capacity_mw: sum(100) },
        take_or_pay: { doc_count: 0, capacity_mw: sum(0) },
        annual_payment_obligation_usd: sum(1234567.5),
        guaranteed_amount_usd: sum(0),
        with_disclosed_amounts: { doc_count: 3 },
        by_risk_feature: {
          buckets: [bucket('take_or_pay', 1, 1), bucket('fx_indexed', 1, 1)],
          sum_other_doc_count: 0,
        },
        by_tariff: {
          buckets: [bucket('energy_only', 3, 1), bucket('availability_based', 3, 2)],
          sum_other_doc_count: 0,
        },
        live_index: {
          doc_count: 10,
          name: { buckets: [{ key: 'ppas-20261122t041530123z', doc_count: 10 }] },
        },
      }),
    );
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
      take_or_pay: { ppas: 0, capacity_mw: 0, share_of_capacity: 0 },
      annual_payment_obligation_usd: 1234568,
      guaranteed_amount_usd: 0,
      ppas_with_disclosed_amounts: 3,
      by_risk_feature: [
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
        without_year: { doc_count: 0, capacity_mw: sum(0) },
        government_guarantee: { doc_count: 0, capacity_mw: sum(0) },
        take_or_pay: { doc_count: 0, capacity_mw: sum(0) },
        annual_payment_obligation_usd: sum(0),
        guaranteed_amount_usd: sum(null),
        with_disclosed_amounts: { doc_count: 0 },
        by_risk_feature: empty,
        by_tariff: empty,
        live_index: { doc_count: 0, name: empty },
      }),
    );
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
      without_year: { doc_count: 0, capacity_mw: sum(0) },
      government_guarantee: { doc_count: 0, capacity_mw: sum(0) },
      take_or_pay: { doc_count: 0, capacity_mw: sum(0) },
      annual_payment_obligation_usd: sum(0),
      guaranteed_amount_usd: sum(0),
      with_disclosed_amounts: { doc_count: 0 },
      by_risk_feature: none,
      by_tariff: none,
      live_index: { doc_count: 0, name: none },
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
});
