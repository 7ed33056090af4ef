// The red flags through the real app (issue 74), against an oracle written here in plain JavaScript from the
// contract's table (docs/flags.md), independent of indexContract/flags.ts: the sample plus a seeded set built to sit
// on each boundary (test/support/flagRecords.ts), indexed once with the real reindex. Equal to the oracle: every
// PPA's flags, the filters (OR, `!`, flagged) in the list, statistics, export and OCDS packages, the facet counts,
// the groups, the statistics topic (computable, coverage), the sort and the evidence; then a reindex that moves a
// fence, seen in the changes with the same filter.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PpaRecord } from '../../indexContract/record.js';
import { roundTo } from '../../src/present/rounding.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { AT_FENCE, flagBoundaryRecords, INACTIVE_IN_GROUP, MOVED } from '../support/flagRecords.js';
import { ppasApi, type ListBody } from '../support/ppasApi.js';
import { indexSample } from '../support/sampleIndex.js';
import { records as sampleRecords } from '../support/sampleOracle.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

// ---- The oracle: the contract's table, written again ----

const CODES = [
  'single_bid',
  'no_competition',
  'short_tender',
  'award_before_tender_close',
  'signed_before_award',
  'late_disclosure',
  'contract_not_published',
  'tariff_outlier',
  'guarantee_without_competition',
];

/** numpy.percentile's default (linear interpolation between closest ranks). */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (sorted.length - 1) * p;
  const below = Math.floor(rank);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (rank - below) * (sorted[above]! - sorted[below]!);
}

interface Fence {
  technology: string;
  currency: string;
  count: number;
  q1: number | null;
  q3: number | null;
  fence: number | null;
}

function fencesOf(records: PpaRecord[]): Map<string, Fence> {
  const rates = new Map<string, number[]>();
  for (const r of records) {
    const currency = r.contract?.currency;
    const rate = r.contract?.energy_rate_per_kwh;
    if (!r.published || !r.active || currency == null || rate == null) continue;
    const key = `${r.technology}/${currency}`;
    rates.set(key, [...(rates.get(key) ?? []), rate]);
  }
  const fences = new Map<string, Fence>();
  for (const [key, values] of rates) {
    const [technology, currency] = key.split('/') as [string, string];
    if (values.length < 10) {
      fences.set(key, { technology, currency, count: values.length, q1: null, q3: null, fence: null });
      continue;
    }
    const q1 = percentile(values, 0.25);
    const q3 = percentile(values, 0.75);
    fences.set(key, { technology, currency, count: values.length, q1, q3, fence: q3 + 1.5 * (q3 - q1) });
  }
  return fences;
}

const day = (date: string) =>
  Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / 86_400_000;

interface Judged {
  raised: string[];
  decidable: string[];
  inputs: Record<string, Record<string, unknown>>;
  fence?: Fence;
}

function judge(r: PpaRecord, fences: Map<string, Fence>): Judged {
  const p = r.procurement ?? {};
  const c = r.contract ?? {};
  const method = p.method ?? null;
  const competitive = method === 'competitive_tender';
  const raised = new Set<string>();
  const decidable = new Set<string>();
  const inputs: Judged['inputs'] = {};
  const rule = (code: string, canDecide: boolean, isRaised: boolean, read: Record<string, unknown>) => {
    if (canDecide) decidable.add(code);
    if (canDecide && isRaised) raised.add(code);
    inputs[code] = read;
  };
  const bidders = p.number_of_bidders ?? null;
  rule('single_bid', competitive && bidders !== null, bidders === 1, { method, number_of_bidders: bidders });
  rule(
    'no_competition',
    method !== null,
    ['direct_negotiation', 'unsolicited_proposal'].includes(method ?? ''),
    {
      method,
    },
  );
  const [start, end, award, signed] = [p.tender_start, p.tender_end, p.award_date, c.signed_date].map(
    (v) => v ?? null,
  );
  const tenderDays = start && end ? day(end) - day(start) : null;
  rule('short_tender', competitive && tenderDays !== null, (tenderDays ?? 99) < 30, {
    method,
    tender_start: start,
    tender_end: end,
    days: tenderDays,
  });
  const awardDays = award && end ? day(end) - day(award) : null;
  rule('award_before_tender_close', awardDays !== null, (awardDays ?? 0) > 0, {
    award_date: award,
    tender_end: end,
    days: awardDays,
  });
  const signedDays = signed && award ? day(award) - day(signed) : null;
  rule('signed_before_award', signedDays !== null, (signedDays ?? 0) > 0, {
    signed_date: signed,
    award_date: award,
    days: signedDays,
  });
  const publishedOn = r.published_at ? new Date(r.published_at).toISOString().slice(0, 10) : null;
  const lateDays = signed && publishedOn ? day(publishedOn) - day(signed) : null;
  rule('late_disclosure', lateDays !== null, (lateDays ?? 0) > 365, {
    signed_date: signed,
    published_on: publishedOn,
    days: lateDays,
  });
  const types = (r.documents ?? []).map((d) => d.document_type).filter((t): t is string => t != null);
  rule('contract_not_published', true, !types.includes('contractSigned'), { document_types: types });
  const rate = c.energy_rate_per_kwh ?? null;
  const currency = c.currency ?? null;
  const fence = currency === null ? undefined : fences.get(`${r.technology}/${currency}`);
  const outlierDecidable = rate !== null && fence?.fence != null;
  rule('tariff_outlier', outlierDecidable, outlierDecidable && rate! > fence!.fence!, {
    technology: r.technology,
    currency,
    energy_rate_per_kwh: rate,
  });
  const guaranteed = (r.risk_features ?? []).includes('government_guarantee');
  rule(
    'guarantee_without_competition',
    decidable.has('no_competition') && (!competitive || decidable.has('single_bid')),
    guaranteed && (raised.has('no_competition') || raised.has('single_bid')),
    {
      government_guarantee: guaranteed,
      method,
      number_of_bidders: bidders,
      guaranteed_amount_usd: r.fiscal?.guaranteed_amount_usd ?? null,
    },
  );
  const inOrder = (set: Set<string>) => CODES.filter((code) => set.has(code));
  return { raised: inOrder(raised), decidable: inOrder(decidable), inputs, ...(fence ? { fence } : {}) };
}

// ---- The app over the sample and the seeded set ----

const everything = [...sampleRecords, ...flagBoundaryRecords()];
const FENCES = fencesOf(everything);
const judged = new Map(everything.filter((r) => r.published).map((r) => [r.slug, judge(r, FENCES)]));
const listed = everything.filter((r) => r.published && r.active);
const flagsOf = (slug: string) => judged.get(slug)!.raised;

interface Selection {
  chosen?: string[];
  left?: string[];
  flagged?: boolean;
}
const selects =
  ({ chosen, left, flagged }: Selection) =>
  (r: PpaRecord) => {
    const raised = flagsOf(r.slug);
    return (
      (!chosen || chosen.some((code) => raised.includes(code))) &&
      (!left || !left.some((code) => raised.includes(code))) &&
      (flagged === undefined || flagged === raised.length > 0)
    );
  };

const FILTERS: [string, Selection][] = [
  ['flags=single_bid', { chosen: ['single_bid'] }],
  ['flags=short_tender,tariff_outlier', { chosen: ['short_tender', 'tariff_outlier'] }],
  ['flags=!contract_not_published', { left: ['contract_not_published'] }],
  [
    'flags=no_competition,!guarantee_without_competition',
    { chosen: ['no_competition'], left: ['guarantee_without_competition'] },
  ],
  ['flagged=true', { flagged: true }],
  ['flagged=false', { flagged: false }],
  ['flags=late_disclosure&flagged=true', { chosen: ['late_disclosure'], flagged: true }],
];

const sortedSlugs = (records: PpaRecord[]) => records.map((r) => r.slug).sort();

describe('API: red flags against an oracle of the contract (sample + boundary set)', function () {
  this.timeout(180_000);
  const client = testEsClient();
  const alias = uniqueName('api-flags');
  let dir: string;
  let path: string;
  let app: TestApp;
  const api = ppasApi(() => app.url);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ppa-api-flags-'));
    path = join(dir, 'flags.ndjson');
    await writeFile(path, everything.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await indexSample(client, alias, path);
    app = await buildTestApp({ alias, configOverrides: { logLevel: 'warn' } });
  });
  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function exported(query: string): Promise<{ slug: string; flags: string[] }[]> {
    const response = await fetch(`${app.url}/api/v1/ppas/export?format=ndjson&fields=slug,flags&${query}`);
    expect(response.status, query).to.equal(200);
    const text = await response.text();
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { slug: string; flags: string[] });
  }

  it('the sample alone raises every flag a few times, and some are undecidable', () => {
    const sampleListed = listed.filter((r) => !r.slug.startsWith('flag-'));
    for (const code of CODES) {
      expect(sampleListed.filter((r) => flagsOf(r.slug).includes(code)).length, code).to.be.at.least(3);
    }
    expect(listed.some((r) => !judged.get(r.slug)!.decidable.includes('tariff_outlier'))).to.equal(true);
  });

  it('gives every listed PPA exactly the oracle’s flags, in the table’s order (export, NDJSON)', async () => {
    const rows = await exported('');
    expect(rows).to.have.length(listed.length);
    for (const row of rows) expect(row.flags, row.slug).to.deep.equal(flagsOf(row.slug));
  });

  it('writes the CSV column joined by ";"', async () => {
    const response = await fetch(
      `${app.url}/api/v1/ppas/export?format=csv&fields=slug,flags&flags=late_disclosure`,
    );
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).to.equal('slug,flags,url');
    const row = lines.find((line) => line.startsWith('flag-many,'));
    expect(row).to.equal(`flag-many,${flagsOf('flag-many').join(';')},${app.url}/api/v1/ppas/flag-many`);
  });

  it('selects the oracle’s PPAs with flags (OR, !) and flagged, alike in the list, statistics, export and OCDS', async () => {
    for (const [query, selection] of FILTERS) {
      const expected = listed.filter(selects(selection));
      expect(expected.length, query).to.be.greaterThan(0);
      expect((await api.list(`${query}&per_page=1`)).meta.total, `list ${query}`).to.equal(expected.length);
      const statistics = (await api.get(`/api/v1/ppas/statistics?${query}`)).body as {
        data: { totals: { ppas: number } };
      };
      expect(statistics.data.totals.ppas, `statistics ${query}`).to.equal(expected.length);
      expect((await exported(query)).map((row) => row.slug).sort(), `export ${query}`).to.deep.equal(
        sortedSlugs(expected),
      );
    }
    const query = 'flags=tariff_outlier,short_tender';
    const ocds = (await api.get(`/api/v1/ppas/ocds?${query}&per_page=100`)).body as {
      releases: { ocid: string }[];
    };
    const expected = listed.filter(selects({ chosen: ['tariff_outlier', 'short_tender'] }));
    expect(expected.length).to.be.below(100);
    expect(ocds.releases.map((release) => release.ocid.slice(release.ocid.length - 200)).length).to.equal(
      expected.length,
    );
    for (const r of expected)
      expect(ocds.releases.some((release) => release.ocid.endsWith(`-${r.slug}`))).to.equal(true);
  });

  it('refuses an unknown code with a 400 naming flags and listing the codes; flagged takes only true or false', async () => {
    const body = await api.problem('/api/v1/ppas?flags=single_bid,bogus');
    expect(body.invalid_params!.map((p) => p.name)).to.deep.equal(['flags']);
    expect(body.invalid_params![0]!.reason).to.contain('bogus').and.contain(CODES.join(', '));
    for (const path of ['/api/v1/ppas/statistics?flags=!bogus', '/api/v1/ppas/export?flags=bogus']) {
      expect((await api.problem(path)).invalid_params!.map((p) => p.name)).to.deep.equal(['flags']);
    }
    expect((await api.problem('/api/v1/ppas?flagged=yes')).invalid_params!.map((p) => p.name)).to.deep.equal([
      'flagged',
    ]);
  });

  it('counts facets=flags as the oracle, leaving the flags filter out (disjunctive)', async () => {
    for (const [query, filter] of [
      ['', () => true],
      ['technology=solar_pv', (r: PpaRecord) => r.technology === 'solar_pv'],
      ['flags=single_bid', () => true],
    ] as [string, (r: PpaRecord) => boolean][]) {
      const body: ListBody = await api.list(`facets=flags&per_page=1&${query}`);
      const counts = new Map<string, number>();
      for (const r of listed.filter(filter))
        for (const code of flagsOf(r.slug)) counts.set(code, (counts.get(code) ?? 0) + 1);
      const expected = [...counts]
        .map(([value, count]) => ({ value, count }))
        .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
      expect(body.meta.facets!.flags, query).to.deep.equal(expected);
    }
  });

  it('groups by flag as the oracle: a PPA in the group of each flag, none under null', async () => {
    const body = (await api.get('/api/v1/ppas/statistics?group_by=flag&group_limit=200')).body as {
      data: { groups: { key: string | null; ppas: number; capacity_mw: number }[] };
    };
    const expected = new Map<string | null, { ppas: number; mw: number }>();
    for (const r of listed) {
      const raised = flagsOf(r.slug);
      for (const key of raised.length > 0 ? raised : [null]) {
        const group = expected.get(key) ?? { ppas: 0, mw: 0 };
        expected.set(key, { ppas: group.ppas + 1, mw: group.mw + r.capacity_mw });
      }
    }
    expect(body.data.groups).to.have.length(expected.size);
    for (const group of body.data.groups) {
      const oracle = expected.get(group.key)!;
      expect(group.ppas, String(group.key)).to.equal(oracle.ppas);
      expect(group.capacity_mw, String(group.key)).to.equal(roundTo(oracle.mw, 1));
    }
  });

  it('gives the statistics topic as the oracle: raised, computable, coverage, capacity, guaranteed amounts', async () => {
    for (const [query, filter] of [
      ['', () => true],
      ['technology=tidal,geothermal', (r: PpaRecord) => ['tidal', 'geothermal'].includes(r.technology)],
      ['flagged=false', (r: PpaRecord) => flagsOf(r.slug).length === 0],
      ['technology=no_such_technology', () => false],
    ] as [string, (r: PpaRecord) => boolean][]) {
      const body = (await api.get(`/api/v1/ppas/statistics?${query}`)).body as {
        data: { flags: Record<string, unknown>[] };
      };
      const selection = listed.filter(filter);
      const expected = CODES.map((code) => {
        const raising = selection.filter((r) => flagsOf(r.slug).includes(code));
        const computable = selection.filter((r) => judged.get(r.slug)!.decidable.includes(code)).length;
        return {
          code,
          raised: raising.length,
          computable,
          coverage: selection.length === 0 ? 0 : roundTo(computable / selection.length, 3),
          capacity_mw: roundTo(
            raising.reduce((sum, r) => sum + r.capacity_mw, 0),
            1,
          ),
          guaranteed_amount_usd: roundTo(
            raising.reduce((sum, r) => sum + (r.fiscal?.guaranteed_amount_usd ?? 0), 0),
            0,
          ),
        };
      });
      expect(body.data.flags, query).to.deep.equal(expected);
    }
  });

  it('sorts flags_desc as the oracle (count, then published_at descending, then slug), pages and cursor alike', async () => {
    const expected = [...listed]
      .sort(
        (a, b) =>
          flagsOf(b.slug).length - flagsOf(a.slug).length ||
          Date.parse(b.published_at!) - Date.parse(a.published_at!) ||
          (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0),
      )
      .map((r) => r.slug);
    expect(await api.walk('sort=flags_desc&per_page=100&cursor=*')).to.deep.equal(expected);
    const second = await api.list('sort=flags_desc&per_page=50&page=2');
    expect(second.meta.sort).to.equal('flags_desc');
    expect(second.data.map((item) => item.slug)).to.deep.equal(expected.slice(50, 100));
  });

  it('explains every raised flag of the seeded set with the oracle’s inputs, and the peers of an outlier', async () => {
    const seeded = flagBoundaryRecords().filter((r) => r.published);
    for (const r of seeded) {
      const { body } = await api.get(`/api/v1/ppas/${r.slug}`);
      const data = (body as { data: { flags: string[]; flag_evidence: Record<string, unknown>[] } }).data;
      const oracle = judged.get(r.slug)!;
      expect(data.flags, r.slug).to.deep.equal(oracle.raised);
      expect(
        data.flag_evidence.map((e) => e.code),
        r.slug,
      ).to.deep.equal(oracle.raised);
      for (const evidence of data.flag_evidence) {
        const code = evidence.code as string;
        expect(evidence.inputs, `${r.slug} ${code}`).to.deep.equal(oracle.inputs[code]);
        expect(evidence.explanation, `${r.slug} ${code}`).to.be.a('string').with.length.above(20);
        const days = (oracle.inputs[code] as { days?: number }).days;
        if (typeof days === 'number') expect(evidence.explanation).to.contain(String(days));
        if (code === 'tariff_outlier') expect(evidence.peers).to.deep.equal(oracle.fence);
        else expect(evidence).to.not.have.property('peers');
      }
    }
    // A sample PPA that is an outlier, with its peers' fence.
    const outlier = listed.find(
      (r) => flagsOf(r.slug).includes('tariff_outlier') && !r.slug.startsWith('flag-'),
    );
    if (outlier) {
      const { body } = await api.get(`/api/v1/ppas/${outlier.slug}`);
      const evidence = (
        body as { data: { flag_evidence: Record<string, unknown>[] } }
      ).data.flag_evidence.find((e) => e.code === 'tariff_outlier')!;
      expect(evidence.peers).to.deep.equal(judged.get(outlier.slug)!.fence);
      expect(evidence.inputs).to.deep.equal(judged.get(outlier.slug)!.inputs.tariff_outlier);
    }
  });

  it('lists the most-flagged PPAs with their evidence from one URL (fields=flag_evidence), as their details give it', async () => {
    const { status, body } = await api.get(
      '/api/v1/ppas?sort=flags_desc&per_page=5&fields=project_name,flags,flag_evidence',
    );
    expect(status).to.equal(200);
    const items = (
      body as { data: { slug: string; flags: string[]; flag_evidence: Record<string, unknown>[] }[] }
    ).data;
    expect(items.map((item) => item.slug)).to.deep.equal(
      (await api.list('sort=flags_desc&per_page=5')).data.map((item) => item.slug),
    );
    for (const item of items) {
      expect(item.flags, item.slug).to.deep.equal(judged.get(item.slug)!.raised);
      const detail = await api.get(`/api/v1/ppas/${item.slug}`);
      expect(item.flag_evidence, item.slug).to.deep.equal(
        (detail.body as { data: { flag_evidence: unknown[] } }).data.flag_evidence,
      );
      expect(item.flag_evidence.map((e) => e.code)).to.deep.equal(item.flags);
    }
    expect(items[0]!.flags.length).to.be.greaterThan(2);
    // Never by default, nor when fields leave it out; the export's columns do not take it.
    const plain = await api.list('sort=flags_desc&per_page=5');
    for (const item of plain.data) expect(item).to.not.have.property('flag_evidence');
    const flagsOnly = await api.get('/api/v1/ppas?sort=flags_desc&per_page=5&fields=flags');
    for (const item of (flagsOnly.body as { data: object[] }).data)
      expect(item).to.not.have.property('flag_evidence');
    const exported = await api.get('/api/v1/ppas/export?format=ndjson&fields=flag_evidence');
    expect(exported.status).to.equal(400);
    expect(JSON.stringify(exported.body)).to.contain('fields');
  });

  it('serves the methodology and the fences in use (GET /api/v1/flags), computed when the index was built', async () => {
    const { status, body } = await api.get('/api/v1/flags');
    expect(status).to.equal(200);
    const data = (body as { data: Record<string, unknown> }).data as {
      methodology_version: number;
      computed_at: string;
      indicators: { code: string; reference: string }[];
      peer_groups: Fence[];
    };
    expect(data.methodology_version).to.equal(1);
    expect(data.indicators.map((indicator) => indicator.code)).to.deep.equal(CODES);
    expect(data.indicators[0]!.reference).to.contain('R018');
    expect(data.indicators[2]!.reference).to.contain('R003');
    const index = Object.keys(await client.indices.getAlias({ name: alias }))[0]!;
    const meta = (await client.indices.getMapping({ index }))[index]!.mappings._meta as { built_at: string };
    expect(Date.parse(data.computed_at)).to.equal(Date.parse(meta.built_at));
    const expected = [...FENCES.values()].sort((a, b) =>
      a.technology < b.technology ? -1 : a.technology > b.technology ? 1 : a.currency < b.currency ? -1 : 1,
    );
    expect(data.peer_groups).to.deep.equal(expected);
    expect((await api.problem('/api/v1/flags?x=1')).status).to.equal(400);
  });

  it('a reindex that moves a fence shows the PPAs whose flags changed in changes, and the flags filter selects among them', async () => {
    const since = (await api.list('per_page=1')).meta as unknown as { changes_since: string };
    const moved = [...sampleRecords, ...flagBoundaryRecords({ moved: true })];
    await writeFile(path, moved.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await indexSample(client, alias, path);
    const changes = async (query: string) => {
      const { status, body } = await api.get(
        `/api/v1/ppas/changes?since=${encodeURIComponent(since.changes_since)}&${query}`,
      );
      expect(status, query).to.equal(200);
      return (body as { data: { slug: string }[] }).data.map((event) => event.slug).sort();
    };
    expect(await changes('')).to.deep.equal([AT_FENCE, INACTIVE_IN_GROUP, ...MOVED].sort());
    // The same flags filter as the list: the changed PPAs that raise tariff_outlier now.
    const raisingNow = await changes('flags=tariff_outlier');
    expect(raisingNow).to.include(AT_FENCE);
    expect(raisingNow).to.not.include.members(MOVED);
    expect(await changes('flags=!tariff_outlier')).to.include.members(MOVED);
    expect((await api.list('flags=tariff_outlier&slug=' + AT_FENCE)).meta.total).to.equal(1);
    // The feed takes the same filter: the newest changes of PPAs raising tariff_outlier, the moved peers not among them.
    const feed = await fetch(`${app.url}/api/v1/ppas/feed?flags=tariff_outlier`);
    expect(feed.status).to.equal(200);
    const entries = [
      ...(await feed.text()).matchAll(/<link rel="alternate" href="[^"]*\/api\/v1\/ppas\/([^"]+)"\/>/g),
    ].map((match) => match[1]!);
    expect(entries).to.include(AT_FENCE);
    for (const slug of entries)
      expect(
        judge(
          moved.find((r) => r.slug === slug)!,
          fencesOf(moved),
        ).raised,
        slug,
      ).to.include('tariff_outlier');
  });
});
