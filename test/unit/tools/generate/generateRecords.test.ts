import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { generateRecords, slugify } from '../../../../tools/generate/generateRecords.js';
import { writeNdjson } from '../../../../tools/generate/writeNdjson.js';
import {
  PROCUREMENT_METHODS,
  RISK_FEATURES,
  TARIFFS,
  TECHNOLOGIES,
} from '../../../../tools/generate/vocabulary.js';
import type { PpaRecord } from '../../../../indexContract/record.js';
import { checkRecord } from '../../../../indexer/sources/recordSchema.js';
import { foldText } from '../../../../indexContract/text/fold.js';
import { PassThrough } from 'node:stream';

const SAMPLE = new URL('../../../../data/sample-ppas.ndjson', import.meta.url);

describe('indexer: record generator', () => {
  const records = [...generateRecords({ seed: 20261122, count: 2000 })];

  it('is deterministic: the same seed gives the same records, another seed others', () => {
    expect([...generateRecords({ seed: 20261122, count: 50 })]).to.deep.equal(records.slice(0, 50));
    expect([...generateRecords({ seed: 1, count: 50 })]).to.not.deep.equal(records.slice(0, 50));
  });

  it('makes only records that pass the schema', () => {
    const failures = records.flatMap((record) =>
      checkRecord(record).map((p) => `${record.slug}: ${p.field} ${p.message}`),
    );
    expect(failures).to.deep.equal([]);
  });

  it('covers every technology, tariff, risk feature, procurement method and year 1994–2025, and null years', () => {
    const seen = (pick: (r: PpaRecord) => unknown[]) => new Set(records.flatMap(pick));
    expect([...seen((r) => [r.technology])].sort()).to.deep.equal(TECHNOLOGIES.map((t) => t.token).sort());
    expect([...seen((r) => [r.tariff])].sort()).to.deep.equal([...TARIFFS].sort());
    expect([...seen((r) => r.risk_features ?? [])].sort()).to.deep.equal([...RISK_FEATURES].sort());
    expect(seen((r) => [r.procurement?.method])).to.include.members([...PROCUREMENT_METHODS, null]);
    const years = seen((r) => [r.financial_close_year]);
    for (let year = 1994; year <= 2025; year++) expect(years.has(year), `year ${year}`).to.equal(true);
    expect(years.has(null)).to.equal(true);
    expect(seen((r) => [r.country_code]).has(null)).to.equal(true);
  });

  it('has ~10% unpublished and ~10% of published inactive', () => {
    const unpublished = records.filter((r) => !r.published).length / records.length;
    const published = records.filter((r) => r.published);
    const inactive = published.filter((r) => !r.active).length / published.length;
    expect(unpublished).to.be.within(0.06, 0.14);
    expect(inactive).to.be.within(0.06, 0.14);
  });

  it('keeps slugs and reference codes unique; codes look like SN-SOL-2018-001 (XX / 0000 when unknown)', () => {
    expect(new Set(records.map((r) => r.slug)).size).to.equal(records.length);
    expect(new Set(records.map((r) => r.reference_code)).size).to.equal(records.length);
    for (const record of records) {
      expect(record.reference_code).to.match(/^[A-Z]{2}-[A-Z]{3}-\d{4}-\d{3,}$/);
      expect(record.reference_code.startsWith(record.country_code ?? 'XX')).to.equal(true);
      expect(record.reference_code.split('-')[2]).to.equal(String(record.financial_close_year ?? '0000'));
      expect(record.slug.startsWith(slugify(record.project_name).slice(0, 20))).to.equal(true);
    }
  });

  it('keeps capacities in each technology’s range (median within a factor of 2 of record.md)', () => {
    const medians: Record<string, number> = {
      solar_pv: 5,
      wind: 25,
      hydro: 18,
      geothermal: 28,
      gas: 140,
      coal: 590,
    };
    for (const [technology, expected] of Object.entries(medians)) {
      const values = records
        .filter((r) => r.technology === technology)
        .map((r) => r.capacity_mw)
        .sort((a, b) => a - b);
      const median = values[Math.floor(values.length / 2)]!;
      expect(median, technology).to.be.within(expected / 2, expected * 2);
    }
  });

  it('makes search hard: shared words, places reused across countries, twins differing by case or accents, Zipf developers', () => {
    const names = records.map((r) => r.project_name);
    expect(names.filter((n) => n.includes('Solar Park')).length).to.be.greaterThan(100);
    expect(names.filter((n) => n.includes('Hydroelectric Power Station')).length).to.be.greaterThan(20);
    const countriesOfSantaRosa = new Set(
      records.filter((r) => r.project_name.startsWith('Santa Rosa')).map((r) => r.country_code),
    );
    expect(countriesOfSantaRosa.size).to.be.greaterThan(2);
    const byFolded = new Map<string, Set<string>>();
    for (const name of names)
      byFolded.set(foldText(name), (byFolded.get(foldText(name)) ?? new Set()).add(name));
    expect([...byFolded.values()].filter((variants) => variants.size > 1).length).to.be.greaterThan(5);
    expect(names.some((n) => /[ãçéñøæłż]/i.test(n))).to.equal(true);
    const perDeveloper = new Map<string, number>();
    for (const r of records) perDeveloper.set(r.developer, (perDeveloper.get(r.developer) ?? 0) + 1);
    const counts = [...perDeveloper.values()].sort((a, b) => b - a);
    expect(counts[0]!).to.be.greaterThan(counts[Math.floor(counts.length / 2)]! * 5);
  });

  it('writes NDJSON, one record per line', async () => {
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const written = await writeNdjson(generateRecords({ seed: 3, count: 1201 }), output);
    const lines = text.trimEnd().split('\n');
    expect(written).to.equal(1201);
    expect(lines).to.have.length(1201);
    expect(JSON.parse(lines[1200]!).slug).to.match(/-1201$/);
  });

  it('data/sample-ppas.ndjson is the documented command’s output (seed 20261122, 500 records)', () => {
    const sample = readFileSync(SAMPLE, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(sample).to.deep.equal(records.slice(0, 500));
  });
});
