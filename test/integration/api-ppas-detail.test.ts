// The detail endpoint over the real app, a real Elasticsearch and the shipped sample, checked against the plain-JavaScript
// oracle of test/support/sampleOracle.ts.
import { expect } from 'chai';
import { ppasApi, paramNames } from '../support/ppasApi.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { useSampleApp } from '../support/sampleApp.js';
import { records, listed, oracle } from '../support/sampleOracle.js';

describe('GET /api/v1/ppas/{slug} on the sample index', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('api-detail');
  const { get, walk, problem } = ppasApi(() => app().url);

  describe('detail', () => {
    const activeRecord = listed.find((r) => (r.versions ?? []).length > 2 && (r.documents ?? []).length > 1);
    const inactiveRecord = records.find((r) => r.published && !r.active);
    const unpublished = records.find((r) => !r.published);

    it('a published active PPA: 200 with every field, procurement, versions newest first, documents', async () => {
      expect(activeRecord).to.not.equal(undefined);
      const record = activeRecord as PpaRecord;
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
        'flags',
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
        'flag_evidence',
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
      const record = inactiveRecord as PpaRecord;
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
      for (const slug of [(unpublished as PpaRecord).slug, 'no-such-ppa', 'Not_A-Slug', 'x'.repeat(121)]) {
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

  describe('bad input answers 400 naming every problem', () => {
    it('detail: any query parameter is unknown', async () => {
      const slug = listed[0]?.slug ?? '';
      expect(paramNames(await problem(`/api/v1/ppas/${slug}?q=x&page=1`))).to.deep.equal(['page', 'q']);
    });
  });
});
