import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import { ADDED_DOCUMENT_TYPES } from '../../../../src/present/ocdsExtension.js';
import {
  dateTimeOf,
  ocidOf,
  partyId,
  ppaCompiledRelease,
  ppaRelease,
  PROCUREMENT_METHODS,
  type OcdsRelease,
} from '../../../../src/present/ocdsRelease.js';
import type { PpaDetail } from '../../../../src/present/ppa.js';
import { createOcdsValidator } from '../../../support/ocdsValidator.js';

const PREFIX = 'ocds-a1b2c3';
const OCID = `${PREFIX}-kahone-solar`;

/** A PPA as the detail presents it, every source field known. */
function detail(): PpaDetail {
  return {
    flags: ['single_bid'],
    flag_evidence: [
      {
        code: 'single_bid',
        inputs: { number_of_bidders: 1 },
        explanation: 'The competitive tender drew a single bid.',
      },
    ],
    slug: 'kahone-solar',
    project_name: 'Kahone Solar',
    developer: 'Engie / Meridiam (40%)',
    reference_code: 'SN-SOL-2018-001',
    location: 'Kahone, Kaolack',
    country_code: 'SN',
    technology: 'solar_pv',
    tariff: 'energy_only',
    capacity_mw: 35,
    financial_close_year: 2018,
    risk_features: ['take_or_pay', 'government_guarantee'],
    published_at: '2019-01-02T03:04:05Z',
    updated_at: '2024-06-02T08:30:00Z',
    url: 'https://api.example.org/api/v1/ppas/kahone-solar',
    active: true,
    offtaker: { name: 'Senelec', type: 'state_utility' },
    contract: {
      signed_date: '2018-05-15',
      term_years: 25,
      cod_date: '2019-06-30',
      currency: 'XOF',
      energy_rate_per_kwh: 0.038,
      capacity_rate_per_kw_month: 12.5,
    },
    fiscal: {
      annual_payment_obligation_usd: 4_900_000,
      guaranteed_amount_usd: 1_000_000,
      termination_payment_usd: 25_000_000,
    },
    procurement: {
      method: 'competitive_tender',
      method_details: 'Scaling Solar',
      number_of_bidders: 7,
      tender_start: '2016-02-01',
      tender_end: '2016-09-30',
      award_date: '2017-02-13',
      procuring_entity: 'SENELEC',
    },
    versions: [
      { version: 2, date: '2019-07-01', summary: 'COD extended' },
      { version: 1, date: '2018-04-05', summary: 'Initial publication' },
    ],
    documents: [
      {
        title: 'Power Purchase Agreement',
        document_type: 'contractSigned',
        url: 'https://example.org/ppa.pdf',
        published_on: '2018-06-01',
        format: 'application/pdf',
        language: 'fr',
      },
      {
        title: 'Guarantee Report',
        document_type: 'guaranteeReports',
        url: null,
        published_on: null,
        format: null,
        language: null,
      },
    ],
  };
}

type Change = (ppa: PpaDetail) => void;
/** As the API sends it: JSON leaves out what is absent (undefined). */
const json = (release: OcdsRelease): OcdsRelease => JSON.parse(JSON.stringify(release)) as OcdsRelease;
const at = (release: OcdsRelease, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], release);

/**
 * One row per source field: the change to the PPA (none: as above), the OCDS path, and what it holds then. A value
 * of `undefined` means the path is left out.
 */
const ROWS: [string, Change, string, unknown][] = [
  ['slug → ocid', () => undefined, 'ocid', OCID],
  ['updated_at → date', () => undefined, 'date', '2024-06-02T08:30:00Z'],
  ['project_name → contracts.0.title', () => undefined, 'contracts.0.title', 'Kahone Solar'],
  ['reference_code → ppa.referenceCode', () => undefined, 'ppa.referenceCode', 'SN-SOL-2018-001'],
  ['location → ppa.location', () => undefined, 'ppa.location', 'Kahone, Kaolack'],
  ['country_code → ppa.countryCode', () => undefined, 'ppa.countryCode', 'SN'],
  ['country_code null → left out', (p) => void (p.country_code = null), 'ppa.countryCode', undefined],
  ['technology → ppa.technology', () => undefined, 'ppa.technology', 'solar_pv'],
  ['tariff → ppa.tariff', () => undefined, 'ppa.tariff', 'energy_only'],
  ['capacity_mw → ppa.capacityMW', () => undefined, 'ppa.capacityMW', 35],
  ['financial_close_year → ppa.financialCloseYear', () => undefined, 'ppa.financialCloseYear', 2018],
  [
    'financial_close_year null',
    (p) => void (p.financial_close_year = null),
    'ppa.financialCloseYear',
    undefined,
  ],
  [
    'risk_features → ppa.riskFeatures',
    () => undefined,
    'ppa.riskFeatures',
    ['take_or_pay', 'government_guarantee'],
  ],
  ['risk_features [] → left out', (p) => void (p.risk_features = []), 'ppa.riskFeatures', undefined],
  ['published_at → ppa.firstPublished', () => undefined, 'ppa.firstPublished', '2019-01-02T03:04:05Z'],
  ['published_at null', (p) => void (p.published_at = null), 'ppa.firstPublished', undefined],
  ['active → contracts.0.status active', () => undefined, 'contracts.0.status', 'active'],
  ['active false → terminated', (p) => void (p.active = false), 'contracts.0.status', 'terminated'],
  ['offtaker.name → buyer', () => undefined, 'buyer', { id: 'senelec', name: 'Senelec' }],
  ['offtaker.name null → no buyer', (p) => void (p.offtaker.name = null), 'buyer', undefined],
  ['offtaker.type → ppa.offtakerType', () => undefined, 'ppa.offtakerType', 'state_utility'],
  ['offtaker.type null', (p) => void (p.offtaker.type = null), 'ppa.offtakerType', undefined],
  [
    'contract.signed_date → contracts.0.dateSigned',
    () => undefined,
    'contracts.0.dateSigned',
    '2018-05-15T00:00:00Z',
  ],
  [
    'contract.signed_date null',
    (p) => void (p.contract.signed_date = null),
    'contracts.0.dateSigned',
    undefined,
  ],
  [
    'contract.cod_date + term_years → contracts.0.period',
    () => undefined,
    'contracts.0.period',
    { startDate: '2019-06-30T00:00:00Z', endDate: '2044-06-30T00:00:00Z' },
  ],
  [
    'cod_date null: the period starts when signed',
    (p) => void (p.contract.cod_date = null),
    'contracts.0.period',
    { startDate: '2018-05-15T00:00:00Z', endDate: '2043-05-15T00:00:00Z' },
  ],
  [
    'term_years null: a period without an end',
    (p) => void (p.contract.term_years = null),
    'contracts.0.period',
    { startDate: '2019-06-30T00:00:00Z' },
  ],
  [
    '29 February: the term ends on 1 March of a common year',
    (p) => Object.assign(p.contract, { cod_date: '2016-02-29', term_years: 3 }),
    'contracts.0.period',
    { startDate: '2016-02-29T00:00:00Z', endDate: '2019-03-01T00:00:00Z' },
  ],
  [
    'neither date: no period',
    (p) => Object.assign(p.contract, { cod_date: null, signed_date: null }),
    'contracts.0.period',
    undefined,
  ],
  [
    'contract.cod_date → ppa.commercialOperationDate',
    () => undefined,
    'ppa.commercialOperationDate',
    '2019-06-30T00:00:00Z',
  ],
  ['contract.term_years → ppa.termYears', () => undefined, 'ppa.termYears', 25],
  ['contract.currency → ppa.currency', () => undefined, 'ppa.currency', 'XOF'],
  ['contract.currency null', (p) => void (p.contract.currency = null), 'ppa.currency', undefined],
  ['contract.energy_rate_per_kwh → ppa.energyRatePerKWh', () => undefined, 'ppa.energyRatePerKWh', 0.038],
  ['contract.capacity_rate_per_kw_month', () => undefined, 'ppa.capacityRatePerKWMonth', 12.5],
  [
    'capacity rate null',
    (p) => void (p.contract.capacity_rate_per_kw_month = null),
    'ppa.capacityRatePerKWMonth',
    undefined,
  ],
  ['fiscal.annual_payment_obligation_usd', () => undefined, 'ppa.annualPaymentObligationUSD', 4_900_000],
  ['fiscal.guaranteed_amount_usd', () => undefined, 'ppa.guaranteedAmountUSD', 1_000_000],
  ['fiscal.termination_payment_usd', () => undefined, 'ppa.terminationPaymentUSD', 25_000_000],
  [
    'fiscal null',
    (p) => void (p.fiscal.termination_payment_usd = null),
    'ppa.terminationPaymentUSD',
    undefined,
  ],
  ['procurement.method → tender.procurementMethod', () => undefined, 'tender.procurementMethod', 'open'],
  [
    'procurement.method → ppa.procurementMethod',
    () => undefined,
    'ppa.procurementMethod',
    'competitive_tender',
  ],
  [
    'an unknown method: no procurementMethod',
    (p) => void (p.procurement.method = 'auction'),
    'tender.procurementMethod',
    undefined,
  ],
  [
    'procurement.method_details → tender.procurementMethodDetails',
    () => undefined,
    'tender.procurementMethodDetails',
    'Scaling Solar',
  ],
  [
    'procurement.number_of_bidders → tender.numberOfTenderers',
    () => undefined,
    'tender.numberOfTenderers',
    7,
  ],
  [
    'number_of_bidders 0 is kept',
    (p) => void (p.procurement.number_of_bidders = 0),
    'tender.numberOfTenderers',
    0,
  ],
  [
    'procurement.tender_start, tender_end → tender.tenderPeriod',
    () => undefined,
    'tender.tenderPeriod',
    { startDate: '2016-02-01T00:00:00Z', endDate: '2016-09-30T00:00:00Z' },
  ],
  [
    'tender_start null',
    (p) => void (p.procurement.tender_start = null),
    'tender.tenderPeriod',
    { endDate: '2016-09-30T00:00:00Z' },
  ],
  ['procurement.award_date → awards.0.date', () => undefined, 'awards.0.date', '2017-02-13T00:00:00Z'],
  ['award_date null', (p) => void (p.procurement.award_date = null), 'awards.0.date', undefined],
  [
    'procurement.procuring_entity → tender.procuringEntity',
    () => undefined,
    'tender.procuringEntity',
    { id: 'senelec', name: 'Senelec' },
  ],
  [
    'a procuring entity that is not the offtaker is a party of its own',
    (p) => void (p.procurement.procuring_entity = 'Ministère de l’Énergie'),
    'tender.procuringEntity',
    { id: partyId('Ministère de l’Énergie'), name: 'Ministère de l’Énergie' },
  ],
  [
    'developer → awards.0.suppliers, one per consortium member',
    () => undefined,
    'awards.0.suppliers',
    [
      { id: 'engie', name: 'Engie' },
      { id: 'meridiam', name: 'Meridiam' },
    ],
  ],
  [
    'A/S stays whole; ";" splits',
    (p) => void (p.developer = 'Vestas Wind Systems A/S; Ørsted (54.9%)'),
    'awards.0.suppliers',
    [
      { id: partyId('Vestas Wind Systems A/S'), name: 'Vestas Wind Systems A/S' },
      { id: 'orsted', name: 'Ørsted' },
    ],
  ],
  [
    'versions → contracts.0.amendments, after the first',
    () => undefined,
    'contracts.0.amendments',
    [{ id: '2', date: '2019-07-01T00:00:00Z', description: 'COD extended' }],
  ],
  [
    'one version: no amendments',
    (p) => void (p.versions = p.versions.slice(1)),
    'contracts.0.amendments',
    undefined,
  ],
  ['no documents: none', (p) => void (p.documents = []), 'contracts.0.documents', undefined],
];

describe('api present: OCDS release (the mapping)', () => {
  for (const [label, change, path, expected] of ROWS) {
    it(label, () => {
      const ppa = detail();
      change(ppa);
      const release = json(ppaCompiledRelease(ppa, PREFIX));
      expect(at(release, path), path).to.deep.equal(expected);
    });
  }

  it('documents: every source document, ids unique, dates as date-times, nulls left out', () => {
    const ppa = detail();
    ppa.documents.push({ ...ppa.documents[1]!, url: 'https://example.org/g2.pdf' });
    expect(json(ppaCompiledRelease(ppa, PREFIX)).contracts[0]?.documents).to.deep.equal([
      {
        id: 'power-purchase-agreement',
        documentType: 'contractSigned',
        title: 'Power Purchase Agreement',
        url: 'https://example.org/ppa.pdf',
        datePublished: '2018-06-01T00:00:00Z',
        format: 'application/pdf',
        language: 'fr',
      },
      { id: 'guarantee-report', documentType: 'guaranteeReports', title: 'Guarantee Report' },
      {
        id: 'guarantee-report-2',
        documentType: 'guaranteeReports',
        title: 'Guarantee Report',
        url: 'https://example.org/g2.pdf',
      },
    ]);
  });

  it('parties: the offtaker that procures is one party with both roles; each member a supplier', () => {
    expect(json(ppaCompiledRelease(detail(), PREFIX)).parties).to.deep.equal([
      { id: 'senelec', name: 'Senelec', roles: ['buyer', 'procuringEntity'] },
      { id: 'engie', name: 'Engie', roles: ['supplier'] },
      { id: 'meridiam', name: 'Meridiam', roles: ['supplier'] },
    ]);
  });

  it('party ids are the same in every release of the ocid, whatever the spelling of case and accents', () => {
    expect(partyId('SÃO  Energia')).to.equal(partyId('Sao Energia'));
    // The party's id (indexContract/parties.ts): a key of plain words owns its slug, any other adds its hash.
    expect(partyId('Kenya  POWER')).to.equal('kenya-power');
    expect(partyId('Rede Elétrica (SA)')).to.match(/^rede-eletrica-sa-[0-9a-f]{8}$/);
    expect(partyId('(ACME) Power.')).to.match(/^acme-power-[0-9a-f]{8}$/);
    expect(partyId('(ACME) Power.')).to.not.equal(partyId('ACME Power!'));
    expect(partyId('--')).to.match(/^p-[0-9a-f]{8}$/);
  });

  it('a PPA with no procurement data: no tender, an award without a date, still valid', () => {
    const ppa = detail();
    ppa.procurement = {
      method: null,
      method_details: null,
      number_of_bidders: null,
      tender_start: null,
      tender_end: null,
      award_date: null,
      procuring_entity: null,
    };
    const release = json(ppaRelease(ppa, PREFIX));
    expect(release.tender).to.equal(undefined);
    expect(release.tag).to.deep.equal(['award', 'contract', 'contractAmendment']);
    expect(release.awards[0]).to.deep.equal({
      id: `${OCID}-award`,
      status: 'active',
      suppliers: release.awards[0]?.suppliers,
    });
    expect(createOcdsValidator().release(release)).to.deep.equal([]);
  });

  it('the release: its stages as tags, an id that changes with the PPA; the compiled one {ocid}-{date}', () => {
    const ppa = detail();
    const release = ppaRelease(ppa, PREFIX);
    expect(release.tag).to.deep.equal(['tender', 'award', 'contract', 'contractAmendment']);
    expect(release.id).to.match(new RegExp(`^${OCID}-[A-Za-z0-9_-]{16}$`));
    expect(ppaRelease(detail(), PREFIX).id, 'the same PPA, the same id').to.equal(release.id);
    ppa.capacity_mw = 36;
    expect(ppaRelease(ppa, PREFIX).id, 'a changed PPA, a new id').to.not.equal(release.id);
    ppa.active = false;
    expect(ppaRelease(ppa, PREFIX).tag).to.include('contractTermination');
    const compiled = ppaCompiledRelease(detail(), PREFIX);
    expect(compiled.id).to.equal(`${OCID}-2024-06-02T08:30:00Z`);
    expect(compiled.tag).to.deep.equal(['compiled']);
    expect({ ...compiled, id: release.id, tag: release.tag }).to.deep.equal(release);
    expect(Object.keys(compiled).slice(0, 5)).to.deep.equal(['ocid', 'id', 'date', 'tag', 'initiationType']);
  });

  it('ocid and dates: the prefix and the slug; a calendar date is its midnight UTC', () => {
    expect(ocidOf('ocds-a1b2c3', 'x-1')).to.equal('ocds-a1b2c3-x-1');
    expect(dateTimeOf('2018-05-15')).to.equal('2018-05-15T00:00:00Z');
    expect(dateTimeOf('2018-05-15T10:00:00Z')).to.equal('2018-05-15T10:00:00Z');
    expect(dateTimeOf(null)).to.equal(undefined);
  });

  it('codes come from OCDS codelists: methods, roles, tags, statuses; added documentTypes are not core', () => {
    const codes = (name: string) =>
      (
        parseCsv(
          readFileSync(new URL(`../../../../schemas/ocds/1.1.5/codelists/${name}.csv`, import.meta.url)),
          {
            columns: true,
          },
        ) as { Code: string }[]
      ).map((row) => row.Code);
    expect(codes('method')).to.include.members(Object.values(PROCUREMENT_METHODS));
    expect(codes('partyRole')).to.include.members(['buyer', 'procuringEntity', 'supplier']);
    expect(codes('releaseTag')).to.include.members([
      'tender',
      'award',
      'contract',
      'contractAmendment',
      'contractTermination',
      'compiled',
    ]);
    expect(codes('contractStatus')).to.include.members(['active', 'terminated']);
    expect(codes('documentType')).to.not.include.members(ADDED_DOCUMENT_TYPES.map(({ code }) => code));
  });

  it('the full PPA validates, released and compiled, with and without its optional values', () => {
    const validator = createOcdsValidator();
    expect(validator.release(ppaRelease(detail(), PREFIX))).to.deep.equal([]);
    expect(validator.release(ppaCompiledRelease(detail(), PREFIX))).to.deep.equal([]);
    for (const [label, change] of ROWS) {
      const ppa = detail();
      change(ppa);
      expect(validator.release(ppaCompiledRelease(ppa, PREFIX)), label).to.deep.equal([]);
    }
  });
});
