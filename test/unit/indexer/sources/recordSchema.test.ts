import { expect } from 'chai';
import { SHARED_MACHINE_SLACK_MS } from '../../../support/timing.js';
import { readFileSync } from 'node:fs';
import {
  checkRecord,
  MAX_PROBLEMS_PER_RECORD,
  RECORD_SCHEMA_URL,
} from '../../../../indexer/sources/recordSchema.js';
import { generateRecords } from '../../../../tools/generate/generateRecords.js';

const valid = (): Record<string, unknown> =>
  structuredClone([...generateRecords({ seed: 7, count: 1 })][0]!) as never;

function fieldsWithProblems(record: unknown): string[] {
  return checkRecord(record).map((problem) => problem.field);
}

describe('indexer: record schema (mappings/record.schema.json)', () => {
  it('accepts a generated record and the record.md example shape', () => {
    expect(checkRecord(valid())).to.deep.equal([]);
    expect(
      checkRecord({
        slug: 'kahone-solar',
        reference_code: 'SN-SOL-2018-001',
        project_name: 'Kahone Solar',
        developer: 'Engie / Meridiam',
        location: 'Kaolack, Senegal',
        country_code: 'SN',
        technology: 'solar_pv',
        tariff: 'energy_only',
        capacity_mw: 60.0,
        financial_close_year: 2018,
        risk_features: ['government_guarantee', 'take_or_pay'],
        published: true,
        active: true,
        published_at: '2024-03-01T12:00:00Z',
        updated_at: '2024-06-02T08:30:00Z',
        offtaker: { name: 'Senelec', type: 'state_utility' },
        contract: {
          signed_date: '2018-05-15',
          term_years: 25,
          cod_date: null,
          currency: 'EUR',
          energy_rate_per_kwh: 0.038,
          capacity_rate_per_kw_month: null,
        },
        fiscal: {
          annual_payment_obligation_usd: 4900000,
          guaranteed_amount_usd: null,
          termination_payment_usd: null,
        },
        procurement: {
          method: 'competitive_tender',
          method_details: 'Scaling Solar',
          number_of_bidders: 6,
          tender_start: '2017-06-01',
          tender_end: '2018-03-15',
          award_date: '2018-04-05',
          procuring_entity: 'Senelec',
        },
        versions: [{ version: 2, date: '2019-02-01', summary: 'COD extended' }],
        documents: [
          {
            title: 'Power Purchase Agreement',
            document_type: 'contractSigned',
            url: 'https://example.org/ppa.pdf',
            published_on: '2018-06-01',
            format: 'application/pdf',
            language: 'fr',
          },
        ],
      }),
    ).to.deep.equal([]);
  });

  it('names every missing required field', () => {
    expect(fieldsWithProblems({})).to.include.members([
      'slug',
      'reference_code',
      'project_name',
      'developer',
      'location',
      'technology',
      'tariff',
      'capacity_mw',
      'published',
      'active',
      'updated_at',
    ]);
  });

  const cases: [string, (record: Record<string, unknown>) => void, string][] = [
    ['slug with capitals', (r) => (r.slug = 'Kahone-Solar'), 'slug'],
    ['slug with a double dash', (r) => (r.slug = 'kahone--solar'), 'slug'],
    ['slug over 120 chars', (r) => (r.slug = 'a'.repeat(121)), 'slug'],
    ['technology not a token', (r) => (r.technology = 'Solar PV'), 'technology'],
    ['lowercase country code', (r) => (r.country_code = 'sn'), 'country_code'],
    ['negative capacity', (r) => (r.capacity_mw = -1), 'capacity_mw'],
    ['capacity as a string', (r) => (r.capacity_mw = '60'), 'capacity_mw'],
    ['year before 1900', (r) => (r.financial_close_year = 1899), 'financial_close_year'],
    ['fractional year', (r) => (r.financial_close_year = 2018.5), 'financial_close_year'],
    ['duplicate risk feature', (r) => (r.risk_features = ['take_or_pay', 'take_or_pay']), 'risk_features'],
    ['published without published_at', (r) => ((r.published = true), delete r.published_at), 'published_at'],
    [
      'published with null published_at',
      (r) => ((r.published = true), (r.published_at = null)),
      'published_at',
    ],
    ['timestamp without a zone', (r) => (r.updated_at = '2024-06-02T08:30:00'), 'updated_at'],
    ['leap second (not a JavaScript date)', (r) => (r.updated_at = '2016-12-31T23:59:60Z'), 'updated_at'],
    [
      'impossible date',
      (r) => ((r.contract as Record<string, unknown>).signed_date = '2018-02-30'),
      'contract.signed_date',
    ],
    ['unknown top-level field', (r) => (r.surprise = 1), 'surprise'],
    [
      'unknown nested field',
      (r) => ((r.fiscal as Record<string, unknown>).annual_usd = 1),
      'fiscal.annual_usd',
    ],
    [
      'negative fiscal amount',
      (r) => ((r.fiscal as Record<string, unknown>).guaranteed_amount_usd = -5),
      'fiscal.guaranteed_amount_usd',
    ],
    [
      'document URL not http(s)',
      (r) => (r.documents = [{ title: 'x', url: 'ftp://example.org/a' }]),
      'documents.0.url',
    ],
  ];
  for (const [label, mutate, field] of cases) {
    it(`rejects ${label}, naming ${field}`, () => {
      const record = valid();
      mutate(record);
      expect(fieldsWithProblems(record)).to.include(field);
    });
  }

  describe('bounds (docs/record.md, "Bounds")', () => {
    const tokens = (count: number) => Array.from({ length: count }, (_, i) => `feature_${i}`);
    const versions = (count: number) => Array.from({ length: count }, (_, i) => ({ version: i }));
    const documents = (count: number) => Array.from({ length: count }, (_, i) => ({ title: `doc ${i}` }));
    const url = (length: number) => `https://example.org/${'a'.repeat(length - 20)}`;
    const atBound: [string, (record: Record<string, unknown>) => void][] = [
      ['32 risk features', (r) => (r.risk_features = tokens(32))],
      ['500 versions', (r) => (r.versions = versions(500))],
      ['500 documents', (r) => (r.documents = documents(500))],
      ['a 2,048-character document URL', (r) => (r.documents = [{ title: 'x', url: url(2048) }])],
      ['a 500-character project name', (r) => (r.project_name = 'n'.repeat(500))],
      [
        'a 2,000-character version summary',
        (r) => (r.versions = [{ version: 1, summary: 's'.repeat(2000) }]),
      ],
    ];
    for (const [label, mutate] of atBound) {
      it(`accepts ${label}`, () => {
        const record = valid();
        mutate(record);
        expect(checkRecord(record)).to.deep.equal([]);
      });
    }
    const overBound: [string, (record: Record<string, unknown>) => void, string, string][] = [
      ['33 risk features', (r) => (r.risk_features = tokens(33)), 'risk_features', 'more than 32 items'],
      ['501 versions', (r) => (r.versions = versions(501)), 'versions', 'more than 500 items'],
      ['501 documents', (r) => (r.documents = documents(501)), 'documents', 'more than 500 items'],
      [
        'a 2,049-character document URL',
        (r) => (r.documents = [{ title: 'x', url: url(2049) }]),
        'documents.0.url',
        'more than 2048 characters',
      ],
      ['a 501-character project name', (r) => (r.project_name = 'n'.repeat(501)), 'project_name', '500'],
      [
        'a 2,001-character procurement detail',
        (r) => ((r.procurement as Record<string, unknown>).method_details = 'd'.repeat(2001)),
        'procurement.method_details',
        '2000',
      ],
      [
        'a 65-character document type',
        (r) => (r.documents = [{ title: 'x', document_type: 't'.repeat(65) }]),
        'documents.0.document_type',
        '64',
      ],
      [
        'a 41-character timestamp',
        (r) => (r.updated_at = `2024-06-02T08:30:00.${'1'.repeat(20)}Z`),
        'updated_at',
        '40',
      ],
    ];
    for (const [label, mutate, field, message] of overBound) {
      it(`rejects ${label}, naming ${field}`, () => {
        const record = valid();
        mutate(record);
        const problem = checkRecord(record).find((p) => p.field === field);
        expect(problem?.message, JSON.stringify(checkRecord(record))).to.include(message);
      });
    }

    it('checks 10,000 risk features in linear time and names at most a few problems', () => {
      const record = valid();
      record.risk_features = Array.from({ length: 100_000 }, (_, i) => `f_${i}`);
      const started = performance.now();
      expect(checkRecord(record)).to.deep.equal([
        { field: 'risk_features', message: 'must NOT have more than 32 items' },
      ]);
      // uniqueItems compared every pair when the items' type sat behind $ref: 34 s for 100k items.
      // No deadline of its own, so the slack alone: linear is a fraction of it, the quadratic was ten times it.
      expect(performance.now() - started).to.be.lessThan(SHARED_MACHINE_SLACK_MS);

      record.risk_features = Array.from({ length: 10_000 }, (_, i) => `Bad Feature ${i}`);
      const problems = checkRecord(record);
      expect(problems).to.have.length(MAX_PROBLEMS_PER_RECORD);
      expect(problems[0]).to.deep.equal({
        field: 'risk_features',
        message: 'must NOT have more than 32 items',
      });
      expect(problems.at(-1)).to.deep.equal({ field: '(record)', message: 'has 9982 more problem(s)' });
    });

    it('bounds every string (maxLength, or a pattern or format of fixed length) and every list (maxItems)', () => {
      const schema = JSON.parse(readFileSync(RECORD_SCHEMA_URL, 'utf8')) as Record<string, unknown>;
      const unbounded: string[] = [];
      const walk = (node: unknown, path: string): void => {
        if (node === null || typeof node !== 'object') return;
        const schemaNode = node as Record<string, unknown>;
        const types = [schemaNode.type].flat();
        const pattern = typeof schemaNode.pattern === 'string' ? schemaNode.pattern : null;
        const fixedLength =
          (pattern !== null && pattern.endsWith('$') && !/[*+]|\{\d+,\}/.test(pattern)) ||
          schemaNode.format === 'date';
        // A $ref's target is walked on its own (definitions).
        const bounded = schemaNode.maxLength !== undefined || fixedLength || schemaNode.$ref !== undefined;
        if (types.includes('string') && !bounded) unbounded.push(path);
        if (types.includes('array') && schemaNode.maxItems === undefined) unbounded.push(path);
        for (const [key, child] of Object.entries(schemaNode)) walk(child, `${path}/${key}`);
      };
      walk(schema, '#');
      expect(unbounded).to.deep.equal([]);
    });
  });

  it('allows an unpublished record without published_at, and null country/year', () => {
    const record = {
      ...valid(),
      published: false,
      published_at: null,
      country_code: null,
      financial_close_year: null,
    };
    expect(checkRecord(record)).to.deep.equal([]);
  });
});
