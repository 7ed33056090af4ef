import { expect } from 'chai';
import { checkRecord } from '../../../indexer/recordSchema.js';
import { generateRecords } from '../../../indexer/generate/generateRecords.js';

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
