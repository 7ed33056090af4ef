// Source records for the indexer's unit tests: a valid PpaRecord per slug (its reference code made from the slug,
// so no two collide), changed where a test says, and a list of them as the NDJSON stream a reindex reads.
import { Readable } from 'node:stream';
import type { PpaRecord } from '../../indexContract/record.js';

/** A valid, published, active record of `slug`, with `changes` applied. */
export function ppaRecord(slug: string, changes: Partial<PpaRecord> = {}): PpaRecord {
  return {
    slug,
    reference_code: `REF-${slug}`,
    project_name: `Project ${slug.replace(/-/g, ' ')}`,
    developer: 'Meridiam',
    location: 'Kaolack, Senegal',
    country_code: 'SN',
    technology: 'solar_pv',
    tariff: 'energy_only',
    capacity_mw: 60,
    financial_close_year: 2018,
    risk_features: ['government_guarantee'],
    published: true,
    active: true,
    published_at: '2024-03-01T12:00:00Z',
    updated_at: '2024-06-02T08:30:00.000Z',
    ...changes,
  };
}

/** Records (or any values: a test's broken ones) as NDJSON text. */
export function ndjsonText(records: readonly unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}

/** Records as a readable NDJSON stream, as `--source -` gives it. */
export function ndjsonStream(records: readonly unknown[]): Readable {
  return Readable.from([Buffer.from(ndjsonText(records))]);
}
