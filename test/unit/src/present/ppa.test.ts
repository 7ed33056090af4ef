import { expect } from 'chai';
import { BASE, listSource } from '../../../support/sources.js';
import { presentListItem, presentPpa, utcTimestamp } from '../../../../src/present/ppa.js';
import type { DetailSource } from '../../../../indexContract/sourceFields.js';

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
