// The /api/v1/ppas endpoints over the real app, a real Elasticsearch and the shipped sample, checked against
// plain JavaScript over data/sample-ppas.ndjson (published and active records only, as the contract says).
import { expect } from 'chai';
import Koa from 'koa';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { ProblemError } from '../../src/http/problem.js';
import { roundTo } from '../../src/present/statistics.js';
import { ppasRouter } from '../../src/routes/ppas.js';
import type { SearchGateway } from '../../src/search/gateway.js';
import { foldText, nameSortKey } from '../../src/text/fold.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { SAMPLE_PATH, indexSample } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

interface SampleRecord {
  slug: string;
  reference_code: string;
  project_name: string;
  developer: string;
  location: string;
  country_code?: string | null;
  technology: string;
  tariff: string;
  capacity_mw: number;
  financial_close_year?: number | null;
  risk_features?: string[];
  published: boolean;
  active: boolean;
  published_at?: string | null;
  updated_at: string;
  fiscal?: Record<string, number | null> | null;
  procurement?: Record<string, unknown> | null;
  versions?: { version: number; date: string | null; summary: string | null }[];
  documents?: Record<string, unknown>[];
}

const records: SampleRecord[] = readFileSync(SAMPLE_PATH, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as SampleRecord);
const listed = records.filter((record) => record.published && record.active);

// ---- the oracle: the contract in plain JavaScript -------------------------------------------------------------

interface Filters {
  technology?: string[];
  tariff?: string[];
  developer?: string;
  year?: number;
  risk?: string[];
  min?: number;
  max?: number;
}

function oracle(filters: Filters): SampleRecord[] {
  return listed.filter(
    (r) =>
      (!filters.technology || filters.technology.includes(r.technology)) &&
      (!filters.tariff || filters.tariff.includes(r.tariff)) &&
      (filters.developer === undefined ||
        foldText(r.developer).includes(foldText(filters.developer.trim()))) &&
      (filters.year === undefined || r.financial_close_year === filters.year) &&
      (filters.risk ?? []).every((feature) => (r.risk_features ?? []).includes(feature)) &&
      (filters.min === undefined || r.capacity_mw >= filters.min) &&
      (filters.max === undefined || r.capacity_mw <= filters.max),
  );
}

/** Code point order, as Elasticsearch compares keywords (UTF-8 bytes). */
function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) ?? 0);
  const y = Array.from(b, (c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return x.length - y.length;
}

const time = (r: SampleRecord) => new Date(r.published_at ?? 0).getTime();
const SORT_ORACLE: Record<string, (a: SampleRecord, b: SampleRecord) => number> = {
  name_asc: (a, b) => byCodePoint(nameSortKey(a.project_name), nameSortKey(b.project_name)),
  name_desc: (a, b) => byCodePoint(nameSortKey(b.project_name), nameSortKey(a.project_name)),
  capacity_asc: (a, b) => a.capacity_mw - b.capacity_mw,
  capacity_desc: (a, b) => b.capacity_mw - a.capacity_mw,
  recent: (a, b) => time(b) - time(a),
  oldest: (a, b) => time(a) - time(b),
};

function sorted(list: SampleRecord[], sort: string): string[] {
  const compare = SORT_ORACLE[sort] ?? (() => 0);
  return [...list].sort((a, b) => compare(a, b) || byCodePoint(a.slug, b.slug)).map((r) => r.slug);
}

// ---- HTTP helpers ---------------------------------------------------------------------------------------------

interface ListBody {
  data: { slug: string; [key: string]: unknown }[];
  meta: { total: number; page: number; per_page: number; total_pages: number; sort: string };
  links: { self: string; first: string; prev: string | null; next: string | null; last: string };
}

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  invalid_params?: { name: string; reason: string }[];
  [key: string]: unknown;
}

let app: TestApp;

async function get(path: string): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(path.startsWith('http') ? path : `${app.url}${path}`);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

async function list(query: string): Promise<ListBody> {
  const { status, body } = await get(`/api/v1/ppas?${query}`);
  expect(status, query).to.equal(200);
  return body as ListBody;
}

/** Every page, following links.next; checks no slug repeats and the total holds. */
async function walk(query: string): Promise<string[]> {
  const slugs: string[] = [];
  let url: string | null = `${app.url}/api/v1/ppas?${query}`;
  let total: number | undefined;
  while (url) {
    const { status, body } = await get(url);
    expect(status, url).to.equal(200);
    const page = body as ListBody;
    total ??= page.meta.total;
    expect(page.meta.total).to.equal(total);
    slugs.push(...page.data.map((item) => item.slug));
    url = page.links.next;
  }
  expect(new Set(slugs).size, 'no slug repeats').to.equal(slugs.length);
  expect(slugs.length, 'no slug goes missing').to.equal(total);
  return slugs;
}

async function problem(path: string, status = 400): Promise<Problem> {
  const response = await get(path);
  expect(response.status, path).to.equal(status);
  expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
  return response.body as Problem;
}

const paramNames = (body: Problem) => [...new Set((body.invalid_params ?? []).map((p) => p.name))].sort();

// ---- the suite ------------------------------------------------------------------------------------------------

describe('api /api/v1/ppas on the sample index', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-ppas');

  before(async () => {
    await indexSample(client, alias);
    app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
  });

  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
  });

  afterEach(() => {
    const failures = app.logs.filter((line) => line.level >= 50);
    expect(failures, JSON.stringify(failures[0])).to.deep.equal([]);
  });

  describe('filters give exactly the records the oracle gives', () => {
    const technologies = [...new Set(listed.map((r) => r.technology))].sort();
    const tariffs = [...new Set(listed.map((r) => r.tariff))].sort();
    const risks = [...new Set(listed.flatMap((r) => r.risk_features ?? []))].sort();
    const years = [
      ...new Set(listed.map((r) => r.financial_close_year).filter((y) => typeof y === 'number')),
    ];
    const capacity = listed.map((r) => r.capacity_mw).sort((a, b) => a - b);
    const at = (fraction: number) => capacity[Math.floor(fraction * (capacity.length - 1))] ?? 0;

    const cases: [string, Filters][] = [
      ['', {}],
      ...technologies.map((t): [string, Filters] => [`technology=${t}`, { technology: [t] }]),
      ['technology=SOLAR_PV,%20wind', { technology: ['solar_pv', 'wind'] }],
      ['technology=solar_pv,nuclear_fusion', { technology: ['solar_pv', 'nuclear_fusion'] }],
      ['technology=nuclear_fusion', { technology: ['nuclear_fusion'] }],
      ...tariffs.map((t): [string, Filters] => [`tariff=${t}`, { tariff: [t] }]),
      [`tariff=${tariffs[0]},${tariffs[1]}`, { tariff: [tariffs[0] ?? '', tariffs[1] ?? ''] }],
      ['developer=LAKOWA', { developer: 'LAKOWA' }],
      ['developer=%C5%82%C4%85kowa%20energia', { developer: 'łąkowa energia' }],
      ['developer=%20cote%20lumiere%20', { developer: 'cote lumiere' }],
      ['developer=AEROVIND', { developer: 'AEROVIND' }],
      ['developer=power%20%2F%20', { developer: 'power / ' }],
      ['developer=s.a.', { developer: 's.a.' }],
      ['developer=*', { developer: '*' }],
      ['developer=%3F', { developer: '?' }],
      ['developer=nobody%20at%20all', { developer: 'nobody at all' }],
      ...years.slice(0, 5).map((y): [string, Filters] => [`year=${y}`, { year: y as number }]),
      ['year=1900', { year: 1900 }],
      ...risks.map((f): [string, Filters] => [`risk_features[]=${f}`, { risk: [f] }]),
      [
        'risk_features[]=take_or_pay&risk_features=government_guarantee',
        { risk: ['take_or_pay', 'government_guarantee'] },
      ],
      [
        'risk_features=take_or_pay,change_in_law_protection',
        { risk: ['take_or_pay', 'change_in_law_protection'] },
      ],
      ['risk_features[]=take_or_pay&risk_features[]=take_or_pay', { risk: ['take_or_pay'] }],
      [`min_capacity=${at(0.5)}`, { min: at(0.5) }],
      [`max_capacity=${at(0.25)}`, { max: at(0.25) }],
      [`min_capacity=${at(0.3)}&max_capacity=${at(0.6)}`, { min: at(0.3), max: at(0.6) }],
      [`min_capacity=${at(0.4)}&max_capacity=${at(0.4)}`, { min: at(0.4), max: at(0.4) }],
      ['min_capacity=0&max_capacity=100000', { min: 0, max: 100000 }],
      [
        `technology=solar_pv,wind,hydro&tariff=${tariffs[0]}&risk_features[]=take_or_pay&min_capacity=5`,
        {
          technology: ['solar_pv', 'wind', 'hydro'],
          tariff: [tariffs[0] ?? ''],
          risk: ['take_or_pay'],
          min: 5,
        },
      ],
      [
        `developer=energ&year=${years[0]}&max_capacity=${at(0.9)}`,
        { developer: 'energ', year: years[0] as number, max: at(0.9) },
      ],
      [
        'technology=gas&developer=power&risk_features=government_guarantee',
        { technology: ['gas'], developer: 'power', risk: ['government_guarantee'] },
      ],
    ];

    for (const [query, filters] of cases) {
      it(`?${query || '(none)'}`, async () => {
        const expected = sorted(oracle(filters), 'name_asc');
        const slugs = await walk(`${query}${query ? '&' : ''}sort=name_asc&per_page=100`);
        expect(slugs).to.deep.equal(expected);
      });
    }

    it('the oracle cases are not trivial', () => {
      expect(oracle({ developer: 'LAKOWA' }).length).to.be.greaterThan(1);
      expect(oracle({ developer: 'AEROVIND' }).length).to.be.greaterThan(1);
      expect(oracle({ risk: ['take_or_pay', 'government_guarantee'] }).length).to.be.greaterThan(1);
    });
  });

  describe('orderings', () => {
    for (const sort of Object.keys(SORT_ORACLE)) {
      it(`sort=${sort} holds across every page (per_page=50), ending with slug ascending`, async () => {
        const slugs = await walk(`sort=${sort}&per_page=50`);
        expect(slugs).to.deep.equal(sorted(listed, sort));
      });
    }

    it('without q and sort: recent; with q: relevance', async () => {
      expect((await list('per_page=100')).data.map((d) => d.slug)).to.deep.equal(
        sorted(listed, 'recent').slice(0, 100),
      );
      expect((await list('q=solar')).meta.sort).to.equal('relevance');
      expect((await list('')).meta.sort).to.equal('recent');
    });

    it('relevance pages neither overlap nor skip', async () => {
      const all = await walk('q=solar&per_page=100');
      expect(all.length).to.be.greaterThan(100);
      expect(await walk('q=solar&per_page=7')).to.deep.equal(all);
    });

    it('a filtered sort holds too', async () => {
      const slugs = await walk('technology=solar_pv&sort=capacity_desc&per_page=20');
      expect(slugs).to.deep.equal(sorted(oracle({ technology: ['solar_pv'] }), 'capacity_desc'));
    });
  });

  describe('paging and links', () => {
    it('default page size is 25; meta is complete', async () => {
      const body = await list('');
      expect(body.data).to.have.length(25);
      expect(body.meta).to.deep.equal({
        total: listed.length,
        page: 1,
        per_page: 25,
        total_pages: Math.ceil(listed.length / 25),
        sort: 'recent',
      });
    });

    it('list items carry exactly the contract fields', async () => {
      const body = await list('per_page=100&sort=oldest');
      const first = listed.find((r) => r.slug === body.data[0]?.slug);
      expect(first).to.not.equal(undefined);
      expect(body.data[0]).to.deep.equal({
        slug: first?.slug,
        project_name: first?.project_name,
        developer: first?.developer,
        reference_code: first?.reference_code,
        location: first?.location,
        country_code: first?.country_code ?? null,
        technology: first?.technology,
        tariff: first?.tariff,
        capacity_mw: first?.capacity_mw,
        financial_close_year: first?.financial_close_year ?? null,
        risk_features: first?.risk_features ?? [],
        published_at: new Date(first?.published_at ?? 0).toISOString().replace('.000Z', 'Z'),
        updated_at: new Date(first?.updated_at ?? 0).toISOString().replace('.000Z', 'Z'),
        url: `${app.url}/api/v1/ppas/${first?.slug}`,
      });
      for (const item of body.data) {
        expect(item.published_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
      }
    });

    it('links keep every parameter, are null at the ends, and match the Link header', async () => {
      const query = 'technology=solar_pv,wind&risk_features[]=take_or_pay&sort=name_asc&per_page=10';
      const total = oracle({ technology: ['solar_pv', 'wind'], risk: ['take_or_pay'] }).length;
      const pages = Math.ceil(total / 10);
      expect(pages).to.be.greaterThan(2);
      const url = (page: number) => `${app.url}/api/v1/ppas?${query}&page=${page}`;

      const first = await get(`/api/v1/ppas?${query}`);
      const firstBody = first.body as ListBody;
      expect(firstBody.links).to.deep.equal({
        self: url(1),
        first: url(1),
        prev: null,
        next: url(2),
        last: url(pages),
      });
      expect(parseLinkHeader(first.headers.get('link'))).to.deep.equal(withoutNulls(firstBody.links));

      const middle = await get(`/api/v1/ppas?page=2&${query}`);
      const middleBody = middle.body as ListBody;
      const inPlace = (page: number) => `${app.url}/api/v1/ppas?page=${page}&${query}`;
      expect(middleBody.links).to.deep.equal({
        self: inPlace(2),
        first: inPlace(1),
        prev: inPlace(1),
        next: inPlace(3),
        last: inPlace(pages),
      });
      expect(parseLinkHeader(middle.headers.get('link'))).to.deep.equal(withoutNulls(middleBody.links));

      const lastBody = await list(`${query}&page=${pages}`);
      expect(lastBody.links.next).to.equal(null);
      expect(lastBody.links.prev).to.equal(url(pages - 1));
    });

    it('a page past the last is 200 with no data; an empty result has total_pages 0 and last = page 1', async () => {
      const past = await list('per_page=100&page=99');
      expect(past.data).to.deep.equal([]);
      expect(past.meta.total).to.equal(listed.length);
      expect(past.links.next).to.equal(null);
      const empty = await list('technology=nuclear_fusion');
      expect(empty.data).to.deep.equal([]);
      expect(empty.meta).to.include({ total: 0, total_pages: 0 });
      expect(empty.links).to.include({
        prev: null,
        next: null,
        last: `${app.url}/api/v1/ppas?technology=nuclear_fusion&page=1`,
      });
    });

    it('absolute links use PUBLIC_BASE_URL when it is set', async () => {
      const other = await buildTestApp({
        alias,
        configOverrides: { publicBaseUrl: 'https://api.example.org/ppa', logLevel: 'warn' },
      });
      try {
        const response = await fetch(`${other.url}/api/v1/ppas?per_page=1&q=solar`);
        const body = (await response.json()) as ListBody;
        expect(body.links.next).to.equal('https://api.example.org/ppa/api/v1/ppas?per_page=1&q=solar&page=2');
        expect(body.data[0]?.url).to.equal(`https://api.example.org/ppa/api/v1/ppas/${body.data[0]?.slug}`);
        expect(response.headers.get('link')).to.contain(
          '<https://api.example.org/ppa/api/v1/ppas?per_page=1&q=solar&page=1>; rel="first"',
        );
      } finally {
        await other.close();
      }
    });
  });

  describe('full text (q)', () => {
    const slugsFor = async (q: string) =>
      (await list(`q=${encodeURIComponent(q)}&per_page=100`)).data.map((d) => d.slug);
    const named = (name: string) => listed.filter((r) => r.project_name === name).map((r) => r.slug);

    it('is insensitive to case and accents ("Sao Joao" finds "São João")', async () => {
      const expected = listed.filter((r) => foldText(r.project_name).includes('sao joao')).map((r) => r.slug);
      expect(expected.length).to.be.greaterThan(0);
      const found = await slugsFor('SAO JOAO');
      expect(found).to.include.members(expected);
      expect(await slugsFor('são joão')).to.deep.equal(found);
    });

    it('tolerates one typo in words of five letters or more, none under five', async () => {
      const target = listed.find((r) => r.project_name.startsWith('Peñablanca'));
      expect(target).to.not.equal(undefined);
      expect(await slugsFor('Penablanka')).to.include(target?.slug);
      // "Soma" (4 letters) with a typo ("Sona") must not reach Soma's records through fuzziness.
      const soma = listed.filter((r) =>
        /\bsoma\b/.test(foldText(`${r.project_name} ${r.location} ${r.developer}`)),
      );
      const sona = await slugsFor('Sxma');
      for (const record of soma) expect(sona).to.not.include(record.slug);
    });

    it('matches a prefix of the last word', async () => {
      const target = listed.find((r) => r.project_name.startsWith('Großbeeren'));
      expect(await slugsFor('grossbee')).to.include(target?.slug);
      expect(await slugsFor('Evora Nov')).to.include.members(
        listed.filter((r) => foldText(r.project_name).startsWith('evora nova')).map((r) => r.slug),
      );
    });

    it('an exact reference code ranks first, whatever its case', async () => {
      const target = listed[17];
      expect(target).to.not.equal(undefined);
      expect((await slugsFor(target?.reference_code ?? ''))[0]).to.equal(target?.slug);
      expect((await slugsFor((target?.reference_code ?? '').toLowerCase()))[0]).to.equal(target?.slug);
    });

    it('an exact phrase ranks above partial matches', async () => {
      const found = await slugsFor('Evora Nova Solar');
      const exact = listed.filter((r) => foldText(r.project_name) === 'evora nova solar').map((r) => r.slug);
      expect(exact.length).to.be.greaterThan(0);
      expect(found.slice(0, exact.length)).to.have.members(exact);
    });

    it('words may match in different fields (name and developer)', async () => {
      const target = listed.find((r) => r.developer === 'Łąkowa Energia Sp. z o.o.');
      const firstWord = foldText(target?.project_name ?? '').split(' ')[0] ?? '';
      expect(await slugsFor(`${firstWord} lakowa`)).to.include(target?.slug);
    });

    it('filters combine with q, and statistics count what the list finds', async () => {
      const body = await list('q=solar&technology=solar_pv&per_page=100');
      for (const item of body.data) expect(item.technology).to.equal('solar_pv');
      const stats = await get('/api/v1/ppas/statistics?q=solar&technology=solar_pv');
      expect((stats.body as { data: { totals: { ppas: number } } }).data.totals.ppas).to.equal(
        body.meta.total,
      );
    });

    it('never finds inactive records', async () => {
      const inactive = records.filter((r) => r.published && !r.active);
      for (const record of inactive.slice(0, 5)) {
        expect(await slugsFor(record.reference_code)).to.not.include(record.slug);
      }
    });

    it('punctuation-only or very long q answers 200', async () => {
      expect((await list('q=--%20!!')).meta.total).to.equal(0);
      const long = Array.from({ length: 22 }, () => 'abcdefgh').join(' ');
      expect(long.length).to.be.at.most(200);
      expect((await list(`q=${encodeURIComponent(long)}`)).meta.total).to.equal(0);
      expect(named('Évora Nova Solar').length).to.be.greaterThan(0);
    });
  });

  describe('statistics equal the same numbers computed from the sample', () => {
    const cases: [string, Filters][] = [
      ['', {}],
      ['technology=solar_pv', { technology: ['solar_pv'] }],
      ['risk_features[]=government_guarantee&min_capacity=10', { risk: ['government_guarantee'], min: 10 }],
      [
        'tariff=energy_only,feed_in_tariff&max_capacity=50',
        { tariff: ['energy_only', 'feed_in_tariff'], max: 50 },
      ],
      ['developer=power&year=2010', { developer: 'power', year: 2010 }],
      ['technology=nuclear_fusion', { technology: ['nuclear_fusion'] }],
    ];
    for (const [query, filters] of cases) {
      it(`?${query || '(none)'}`, async () => {
        const response = await get(`/api/v1/ppas/statistics?${query}`);
        expect(response.status).to.equal(200);
        const body = response.body as { data: unknown; meta: { generated_at: string } };
        expect(body.data).to.deep.equal(statisticsOracle(oracle(filters)));
        expect(body.meta.generated_at).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
      });
    }

    it('generated_at is the build time of the live index, the same for every subset', async () => {
      const index = Object.keys(await client.indices.getAlias({ name: alias }))[0] ?? '';
      const stamp = /-(\d{4})(\d\d)(\d\d)t(\d\d)(\d\d)(\d\d)(\d{3})z$/.exec(index);
      expect(stamp).to.not.equal(null);
      const [, y, mo, d, h, mi, s, ms] = stamp ?? [];
      const expected = `${y}-${mo}-${d}T${h}:${mi}:${s}${ms === '000' ? '' : `.${ms}`}Z`;
      for (const query of ['', 'technology=nuclear_fusion']) {
        const body = (await get(`/api/v1/ppas/statistics?${query}`)).body as {
          meta: { generated_at: string };
        };
        expect(body.meta.generated_at).to.equal(expected);
      }
    });
  });

  describe('detail', () => {
    const activeRecord = listed.find((r) => (r.versions ?? []).length > 2 && (r.documents ?? []).length > 1);
    const inactiveRecord = records.find((r) => r.published && !r.active);
    const unpublished = records.find((r) => !r.published);

    it('a published active PPA: 200 with every field, procurement, versions newest first, documents', async () => {
      expect(activeRecord).to.not.equal(undefined);
      const record = activeRecord as SampleRecord;
      const { status, body } = await get(`/api/v1/ppas/${record.slug}`);
      expect(status).to.equal(200);
      const data = (body as { data: Record<string, unknown> }).data;
      expect(Object.keys(data)).to.have.members([
        'slug',
        'project_name',
        'developer',
        'reference_code',
        'location',
        'country_code',
        'technology',
        'tariff',
        'capacity_mw',
        'financial_close_year',
        'risk_features',
        'published_at',
        'updated_at',
        'url',
        'active',
        'offtaker',
        'contract',
        'fiscal',
        'procurement',
        'versions',
        'documents',
      ]);
      expect(data.active).to.equal(true);
      expect(Object.keys(data.procurement as object)).to.have.members([
        'method',
        'method_details',
        'number_of_bidders',
        'tender_start',
        'tender_end',
        'award_date',
        'procuring_entity',
      ]);
      const expectedVersions = [...(record.versions ?? [])].sort(
        (a, b) => (b.date ?? '').localeCompare(a.date ?? '') || b.version - a.version,
      );
      expect(data.versions).to.deep.equal(
        expectedVersions.map((v) => ({ version: v.version, date: v.date, summary: v.summary })),
      );
      expect((data.documents as { title: string }[]).map((d) => d.title)).to.deep.equal(
        (record.documents ?? []).map((d) => d.title),
      );
      for (const document of data.documents as Record<string, unknown>[]) {
        expect(Object.keys(document)).to.have.members([
          'title',
          'document_type',
          'url',
          'published_on',
          'format',
          'language',
        ]);
      }
      expect(Object.keys(data.fiscal as object)).to.have.members([
        'annual_payment_obligation_usd',
        'guaranteed_amount_usd',
        'termination_payment_usd',
      ]);
      expect(Object.keys(data.offtaker as object)).to.have.members(['name', 'type']);
      expect(Object.keys(data.contract as object)).to.have.members([
        'signed_date',
        'term_years',
        'cod_date',
        'currency',
        'energy_rate_per_kwh',
        'capacity_rate_per_kw_month',
      ]);
    });

    it('a published inactive PPA: 200 with active false, but absent from the list and the statistics', async () => {
      const record = inactiveRecord as SampleRecord;
      const { status, body } = await get(`/api/v1/ppas/${record.slug}`);
      expect(status).to.equal(200);
      expect((body as { data: { active: boolean } }).data.active).to.equal(false);
      const all = await walk('per_page=100');
      expect(all).to.not.include(record.slug);
      const stats = (await get(`/api/v1/ppas/statistics?technology=${record.technology}`)).body as {
        data: { totals: { ppas: number } };
      };
      expect(stats.data.totals.ppas).to.equal(oracle({ technology: [record.technology] }).length);
    });

    it('unpublished, unknown and malformed slugs are 404 with identical bodies', async () => {
      const bodies = [];
      for (const slug of [(unpublished as SampleRecord).slug, 'no-such-ppa', 'Not_A-Slug', 'x'.repeat(121)]) {
        const body = await problem(`/api/v1/ppas/${slug}`, 404);
        expect(body.instance ?? `/api/v1/ppas/${slug}`).to.equal(`/api/v1/ppas/${slug}`);
        delete body.instance;
        bodies.push(body);
      }
      for (const body of bodies) expect(body).to.deep.equal(bodies[0]);
    });

    it('statistics is a literal segment, never a slug', async () => {
      const { status, body } = await get('/api/v1/ppas/statistics');
      expect(status).to.equal(200);
      expect(body).to.have.keys('data', 'meta');
    });
  });

  describe('round trips', () => {
    it('every endpoint makes exactly one search; a 400 makes none', async () => {
      const requests: unknown[] = [];
      const counting: SearchGateway = {
        ...app.search,
        search: (request) => {
          requests.push(request);
          return app.search.search(request);
        },
      };
      const koa = new Koa();
      koa.use(async (ctx, next) => {
        try {
          await next();
        } catch (error) {
          if (!(error instanceof ProblemError)) throw error;
          ctx.status = error.status;
          ctx.body = { status: error.status };
        }
      });
      koa.use(ppasRouter({ search: counting }).routes());
      const server = koa.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const slug = listed[0]?.slug ?? '';
        for (const [path, status, searches] of [
          ['/api/v1/ppas?q=solar&technology=solar_pv', 200, 1],
          ['/api/v1/ppas/statistics?technology=nuclear_fusion', 200, 1],
          [`/api/v1/ppas/${slug}`, 200, 1],
          ['/api/v1/ppas/no-such-ppa', 404, 1],
          ['/api/v1/ppas/Not_A_Slug', 404, 0],
          ['/api/v1/ppas?page=0', 400, 0],
        ] as const) {
          requests.length = 0;
          const response = await fetch(`${base}${path}`);
          expect(response.status, path).to.equal(status);
          expect(requests, path).to.have.length(searches);
        }
      } finally {
        server.close();
      }
    });
  });

  describe('bad input answers 400 naming every problem', () => {
    const rows: [string, string[]][] = [
      [`q=${'a'.repeat(201)}`, ['q']],
      ['technology=solar-pv', ['technology']],
      ['technology=solar_pv,,wind', ['technology']],
      ['tariff=energy_only,', ['tariff']],
      [`developer=${'d'.repeat(101)}`, ['developer']],
      ['year=1899', ['year']],
      ['year=2101', ['year']],
      ['year=20x0', ['year']],
      ['year=2000.5', ['year']],
      [Array.from({ length: 21 }, (_, i) => `risk_features[]=f${i}`).join('&'), ['risk_features[]']],
      [
        [
          ...Array.from({ length: 11 }, (_, i) => `risk_features[]=f${i}`),
          ...Array.from({ length: 10 }, (_, i) => `risk_features=g${i}`),
        ].join('&'),
        ['risk_features[]'],
      ],
      ['risk_features[]=Bad%20Token', ['risk_features[]']],
      ['min_capacity=-1', ['min_capacity']],
      ['max_capacity=100001', ['max_capacity']],
      ['min_capacity=abc', ['min_capacity']],
      ['min_capacity=10&max_capacity=5', ['min_capacity']],
      ['sort=newest', ['sort']],
      ['sort=relevance', ['sort']],
      ['sort=relevance&q=%20%20', ['sort']],
      ['page=0', ['page']],
      ['page=1.5', ['page']],
      ['per_page=0', ['per_page']],
      ['per_page=101', ['per_page']],
      ['page=101&per_page=100', ['page']],
      ['page=10001', ['page']],
      ['limit=10', ['limit']],
      ['q=a&q=b', ['q']],
      ['year=2000&year=2001', ['year']],
      ['technology=wind&technology=hydro', ['technology']],
      [
        'foo=1&technology=a,,b&year=x&per_page=0&sort=relevance&min_capacity=9&max_capacity=1&q=a&q=b',
        ['foo', 'min_capacity', 'per_page', 'q', 'technology', 'year'],
      ],
    ];
    for (const [query, names] of rows) {
      it(`/ppas?${query.length > 60 ? `${query.slice(0, 60)}…` : query} → ${names.join(', ')}`, async () => {
        const body = await problem(`/api/v1/ppas?${query}`);
        expect(body.status).to.equal(400);
        expect(paramNames(body)).to.deep.equal(names);
        for (const param of body.invalid_params ?? [])
          expect(param.reason).to.be.a('string').and.not.equal('');
      });
    }

    it('statistics: page, per_page and sort are not parameters there; filters are checked the same way', async () => {
      expect(
        paramNames(await problem('/api/v1/ppas/statistics?page=1&per_page=10&sort=recent')),
      ).to.deep.equal(['page', 'per_page', 'sort']);
      expect(
        paramNames(await problem('/api/v1/ppas/statistics?year=1800&min_capacity=5&max_capacity=1&x=1')),
      ).to.deep.equal(['min_capacity', 'x', 'year']);
    });

    it('detail: any query parameter is unknown', async () => {
      const slug = listed[0]?.slug ?? '';
      expect(paramNames(await problem(`/api/v1/ppas/${slug}?q=x&page=1`))).to.deep.equal(['page', 'q']);
    });
  });
});

function statisticsOracle(subset: SampleRecord[]) {
  // Capacities in tenths of a MW (the sample has one decimal at most) so the sums are exact.
  const tenths = (list: SampleRecord[]) => list.reduce((sum, r) => sum + Math.round(r.capacity_mw * 10), 0);
  const total = tenths(subset);
  const mw = (list: SampleRecord[]) => roundTo(tenths(list) / 10, 1);
  const share = (part: number, whole: number) => (whole === 0 ? 0 : roundTo(part / whole, 4));
  const groups = (key: (r: SampleRecord) => (string | number | null)[]) => {
    const map = new Map<string | number | null, SampleRecord[]>();
    for (const r of subset) for (const k of key(r)) map.set(k, [...(map.get(k) ?? []), r]);
    return [...map.entries()];
  };
  const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const exposure = (feature: string) => {
    const having = subset.filter((r) => (r.risk_features ?? []).includes(feature));
    return { ppas: having.length, capacity_mw: mw(having), share_of_capacity: share(tenths(having), total) };
  };
  const usd = (field: string) => Math.round(subset.reduce((sum, r) => sum + (r.fiscal?.[field] ?? 0), 0));
  const years = groups((r) => [r.financial_close_year ?? null]);
  return {
    totals: { ppas: subset.length, capacity_mw: mw(subset) },
    capacity_by_technology: groups((r) => [r.technology])
      .map(([technology, list]) => ({
        technology,
        ppas: list.length,
        capacity_mw: mw(list),
        share: share(tenths(list), total),
      }))
      .sort((a, b) => b.capacity_mw - a.capacity_mw || byKey(String(a.technology), String(b.technology))),
    capacity_by_year: [
      ...years
        .filter(([year]) => year !== null)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([year, list]) => ({ year, ppas: list.length, capacity_mw: mw(list) })),
      ...years
        .filter(([year]) => year === null)
        .map(([year, list]) => ({ year, ppas: list.length, capacity_mw: mw(list) })),
    ],
    fiscal_exposure: {
      government_guarantee: exposure('government_guarantee'),
      take_or_pay: exposure('take_or_pay'),
      annual_payment_obligation_usd: usd('annual_payment_obligation_usd'),
      guaranteed_amount_usd: usd('guaranteed_amount_usd'),
      ppas_with_disclosed_amounts: subset.filter(
        (r) => r.fiscal?.annual_payment_obligation_usd != null || r.fiscal?.guaranteed_amount_usd != null,
      ).length,
      by_risk_feature: groups((r) => [...new Set(r.risk_features ?? [])])
        .map(([risk_feature, list]) => ({ risk_feature, ppas: list.length, capacity_mw: mw(list) }))
        .sort(
          (a, b) => b.capacity_mw - a.capacity_mw || byKey(String(a.risk_feature), String(b.risk_feature)),
        ),
    },
    tariff_mix: groups((r) => [r.tariff])
      .map(([tariff, list]) => ({
        tariff,
        ppas: list.length,
        capacity_mw: mw(list),
        share: share(list.length, subset.length),
      }))
      .sort((a, b) => b.ppas - a.ppas || byKey(String(a.tariff), String(b.tariff))),
  };
}

function parseLinkHeader(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>;\s*rel="([^"]+)"$/.exec(part.trim());
    if (match?.[1] && match[2]) links[match[2]] = match[1];
  }
  return links;
}

function withoutNulls(links: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(links).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}
