import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  CONTENT_HASH_VERSION,
  CONTENT_HASH_VERSION_FIELD,
  contentHash,
  servedContentHash,
  servedShape,
  storedHashesCurrent,
} from '../../../indexContract/contentHash.js';
import type { IndexDocument } from '../../../indexContract/document.js';
import type { PpaRecord } from '../../../indexContract/record.js';
import { DETAIL_SOURCE_FIELDS, type DetailSource } from '../../../indexContract/sourceFields.js';
import { buildDocument } from '../../../indexer/elasticsearch/buildDocument.js';

const sample = readFileSync(new URL('../../../data/sample-ppas.ndjson', import.meta.url), 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => JSON.parse(line) as PpaRecord)
  .filter((record) => record.published);

/** The served fields of a document, as a _source filtered to DETAIL_SOURCE_FIELDS gives them back. */
const servedOf = (document: IndexDocument): DetailSource =>
  JSON.parse(
    JSON.stringify(Object.fromEntries(DETAIL_SOURCE_FIELDS.map((field) => [field, document[field]]))),
  ) as DetailSource;

const kahone: DetailSource = {
  slug: 'kahone-solar',
  project_name: 'Kahoné Solar',
  developer: 'Engie',
  reference_code: 'SN-1',
  location: 'Kaolack',
  country_code: 'SN',
  technology: 'solar_pv',
  tariff: 'energy_only',
  capacity_mw: 60.5,
  financial_close_year: 2018,
  risk_features: ['take_or_pay'],
  flags: [],
  published_at: '2024-03-01T12:00:00Z',
  updated_at: '2024-06-02T08:30:00.250Z',
  active: true,
  offtaker: { name: 'Senelec', type: null },
  contract: {
    signed_date: null,
    term_years: 25,
    cod_date: null,
    currency: 'XOF',
    energy_rate_per_kwh: 0.1,
    capacity_rate_per_kw_month: null,
  },
  fiscal: { annual_payment_obligation_usd: null, guaranteed_amount_usd: null, termination_payment_usd: null },
  procurement: {
    method: null,
    method_details: null,
    number_of_bidders: null,
    tender_start: null,
    tender_end: null,
    award_date: null,
    procuring_entity: null,
  },
  versions: [{ version: 1, date: '2018-04-05', summary: 'Initial' }],
  documents: [],
} as DetailSource;

describe('indexContract: the content hash and its version', () => {
  it(`is definition ${CONTENT_HASH_VERSION}: a change to what it gives needs the version moved on`, () => {
    // If this fails, contentHash now hashes the same served values differently: move CONTENT_HASH_VERSION on (the
    // generations built before are then hashed again from _source when compared) and update this value.
    expect(CONTENT_HASH_VERSION).to.equal(2);
    expect(contentHash(kahone)).to.equal('uJE9PCNZQKm2T6BalCfJm8eBIQU');
  });

  it('derives from a document of the sample, read back from _source, exactly the hash buildDocument stored', () => {
    expect(sample.length).to.be.greaterThan(300);
    for (const record of sample) {
      const document = buildDocument(record);
      expect(servedContentHash(servedOf(document)), record.slug).to.equal(document.content_hash);
      // The whole document too (search fields, its own hash) and without its stored hash.
      const { content_hash: _stored, ...withoutHash } = document;
      expect(servedContentHash(withoutHash), record.slug).to.equal(document.content_hash);
      expect(servedShape(servedOf(document))).to.deep.equal(servedOf(document));
    }
  });

  it('derives the same hash from an older shape of the same served values, as the API presents them', () => {
    const expected = contentHash(kahone);
    const older = {
      ...kahone,
      // Nested keys in another order, some left out, one the contract does not know.
      offtaker: { type: null, name: 'Senelec' },
      contract: { currency: 'XOF', term_years: 25, energy_rate_per_kwh: 0.1, unknown: 'x' },
      fiscal: {},
      procurement: undefined,
      versions: [{ summary: 'Initial', date: '2018-04-05', version: 1 }],
      // Timestamps in another written form of the same instant.
      published_at: '2024-03-01T14:00:00+02:00',
      updated_at: '2024-06-02T08:30:00.250+00:00',
      // Search fields and a hash of another definition do not count.
      name_prefixes: ['k', 'ka'],
      content_hash: 'older',
    } as unknown as Partial<DetailSource>;
    expect(servedContentHash(older)).to.equal(expected);
    const { documents: _documents, ...withoutDocuments } = kahone;
    expect(servedContentHash(withoutDocuments)).to.equal(expected);
    // An index built before the flags: none served, none hashed.
    const { flags: _flags, ...withoutFlags } = kahone;
    expect(servedContentHash(withoutFlags)).to.equal(expected);
  });

  it('derives another hash when a served value differs', () => {
    const expected = contentHash(kahone);
    const changes: Partial<DetailSource>[] = [
      { developer: 'Meridiam' },
      { active: false },
      { capacity_mw: 60.50001 },
      { risk_features: [] },
      { country_code: null },
      { published_at: null },
      { updated_at: '2024-06-02T08:30:00.251Z' },
      { offtaker: { name: 'Senelec', type: 'state_utility' } },
      { versions: [] },
      { flags: ['contract_not_published'] },
    ];
    for (const change of changes)
      expect(servedContentHash({ ...kahone, ...change }), JSON.stringify(change)).to.not.equal(expected);
  });

  it('hashes no evidence: a stored one (a build that kept it in _source) or a moved fence changes no PPA', () => {
    const evidence = (fence: number) => [
      {
        code: 'tariff_outlier' as const,
        inputs: { technology: 'solar_pv', currency: 'XOF', energy_rate_per_kwh: 0.1 },
        explanation: `Above the fence of ${fence}.`,
        peers: { technology: 'solar_pv', currency: 'XOF', count: 10, q1: 0.01, q3: 0.02, fence },
      },
    ];
    const flagged = { ...kahone, flags: ['tariff_outlier' as const] };
    const withEvidence = (fence: number) =>
      ({ ...flagged, flag_evidence: evidence(fence) }) as unknown as Partial<DetailSource>;
    expect(servedContentHash(withEvidence(0.035))).to.equal(servedContentHash(withEvidence(0.05)));
    expect(servedContentHash(withEvidence(0.035))).to.equal(servedContentHash(flagged));
    expect(servedContentHash(flagged)).to.not.equal(contentHash(kahone));
  });

  it("trusts a generation's stored hashes only when its _meta names the current version", () => {
    expect(CONTENT_HASH_VERSION_FIELD).to.equal('content_hash_version');
    expect(storedHashesCurrent({ content_hash_version: CONTENT_HASH_VERSION })).to.equal(true);
    expect(storedHashesCurrent({})).to.equal(false);
    expect(storedHashesCurrent({ content_hash_version: 0 })).to.equal(false);
    expect(storedHashesCurrent({ content_hash_version: CONTENT_HASH_VERSION + 1 })).to.equal(false);
    expect(storedHashesCurrent({ content_hash_version: String(CONTENT_HASH_VERSION) })).to.equal(false);
  });
});
