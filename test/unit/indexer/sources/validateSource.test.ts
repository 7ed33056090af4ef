// sources/validateSource: pass 1 of a reindex. Checked: one item's own checks (the schema, a line that could not be
// parsed, what its source found); the report across items in source order (the first of a duplicate slug or
// reference code stays valid, later ones are named with the line they repeat; published, unpublished and inactive
// counted; a byte range's line numbers moved to the file's; only the first 1,000 invalid records listed but all
// counted); a file validated whole; the message naming records by line, element or row, terminal-safe; and the
// error a reindex stops with, listing 20.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_CODES } from '../../../../indexer/exitCodes.js';
import {
  checkItem,
  describeInvalidRecord,
  InvalidSourceError,
  SourceReportBuilder,
  validateItems,
  validateSource,
  type SourceReport,
} from '../../../../indexer/sources/validateSource.js';
import type { SourceItem } from '../../../../indexer/sources/source.js';
import { ndjsonText, ppaRecord } from '../../../support/ppaRecords.js';

async function* itemsOf(values: readonly unknown[]): AsyncGenerator<SourceItem> {
  let line = 0;
  for (const value of values) yield { line: ++line, value };
}

describe('indexer/sources/validateSource', () => {
  it('checks one item alone: its schema, its parse, what its source found', () => {
    expect(checkItem({ line: 3, value: ppaRecord('a', { active: false }) })).to.deep.equal({
      line: 3,
      slug: 'a',
      reference: 'REF-a',
      published: true,
      active: false,
      peer: null,
    });
    // A published, active record with a currency and a rate is a red-flag peer.
    const rated = ppaRecord('b', { contract: { currency: 'USD', energy_rate_per_kwh: 0.12 } });
    expect(checkItem({ line: 5, value: rated })).to.deep.include({
      peer: { technology: 'solar_pv', currency: 'USD', rate: 0.12 },
    });
    const invalid = checkItem({ line: 4, value: ppaRecord('a', { capacity_mw: -1 }) });
    expect(invalid).to.deep.include({ line: 4, slug: 'a' });
    expect((invalid as { problems: { field: string }[] }).problems.map((p) => p.field)).to.deep.equal([
      'capacity_mw',
    ]);
    const found = checkItem({
      line: 5,
      value: ppaRecord('b'),
      problems: [{ field: 'slug', message: 'differs' }],
    });
    expect(found).to.deep.equal({ line: 5, slug: 'b', problems: [{ field: 'slug', message: 'differs' }] });
    const unparsed = {
      line: 6,
      unparsed: true as const,
      slug: 'c',
      problems: [{ field: 'title', message: 'is not UTF-8' }],
    };
    expect(checkItem(unparsed)).to.deep.equal({ line: 6, slug: 'c', problems: unparsed.problems });
    expect(checkItem({ line: 7, value: 42 })).to.deep.include({ slug: null });
  });

  it('keeps the first of a duplicate slug or reference code, naming the line later ones repeat', async () => {
    const report = await validateItems(
      itemsOf([
        ppaRecord('a'),
        ppaRecord('b', { published: false }),
        ppaRecord('a', { reference_code: 'other' }),
        ppaRecord('c', { reference_code: 'REF-b', active: false }),
        ppaRecord('d', { active: false }),
      ]),
      'ndjson',
    );
    expect(report).to.include({ read: 5, valid: 3, invalid: 2, published: 2, unpublished: 1, inactive: 1 });
    expect([...report.invalidLines]).to.deep.equal([3, 4]);
    expect(report.invalidRecords).to.deep.equal([
      { line: 3, slug: 'a', problems: [{ field: 'slug', message: 'duplicates line 1' }] },
      { line: 4, slug: 'c', problems: [{ field: 'reference_code', message: 'duplicates line 2' }] },
    ]);
  });

  it('collects the red flags’ peer rates of the valid records only (a duplicate is no peer)', async () => {
    const rate = (energy_rate_per_kwh: number) => ({ contract: { currency: 'USD', energy_rate_per_kwh } });
    const report = await validateItems(
      itemsOf([
        ppaRecord('a', rate(0.1)),
        ppaRecord('a', { ...rate(9), reference_code: 'other' }),
        ppaRecord('b', { ...rate(0.2), published: false }),
        ppaRecord('c', { ...rate(0.3), active: false }),
        ppaRecord('d', rate(0.4)),
      ]),
      'ndjson',
    );
    expect(report.peerRates.fences('2026-01-01T00:00:00Z').groups).to.deep.equal([
      { technology: 'solar_pv', currency: 'USD', count: 2, q1: null, q3: null, fence: null },
    ]);
  });

  it('moves a byte range’s line numbers to the file’s, and names array elements as elements', () => {
    const builder = new SourceReportBuilder('json-array');
    builder.add(checkItem({ line: 0, value: ppaRecord('a') }));
    builder.add(checkItem({ line: 1, value: ppaRecord('a') }), 10);
    expect(builder.report.invalidRecords).to.deep.equal([
      {
        line: 11,
        slug: 'a',
        problems: [
          { field: 'slug', message: 'duplicates element 0' },
          { field: 'reference_code', message: 'duplicates element 0' },
        ],
      },
    ]);
  });

  it('counts every invalid record but lists only the first 1,000', () => {
    const builder = new SourceReportBuilder('ndjson');
    for (let line = 1; line <= 1005; line++)
      builder.add({ line, slug: null, problems: [{ field: '', message: 'x' }] });
    expect(builder.report.invalid).to.equal(1005);
    expect(builder.report.invalidLines.size).to.equal(1005);
    expect(builder.report.invalidRecords).to.have.length(1000);
  });

  it('validates a file, reporting each record checked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'indexer-validate-'));
    try {
      const path = join(dir, 'records.ndjson');
      await writeFile(path, `${ndjsonText([ppaRecord('a'), ppaRecord('b')])}not json\n`);
      const seen: number[] = [];
      const report = await validateSource(path, 'ndjson', { onRecord: (read) => seen.push(read) });
      expect(report).to.include({ format: 'ndjson', read: 3, valid: 2, invalid: 1 });
      expect(seen).to.deep.equal([1, 2, 3]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a record by line, element or row, with its slug, its control characters made visible', () => {
    const record = {
      line: 12,
      slug: 'kahone',
      problems: [{ field: 'capacity_mw', message: 'must be >= 0' }],
    };
    expect(describeInvalidRecord(record, 'ndjson')).to.equal(
      'line 12 (slug "kahone"): capacity_mw must be >= 0',
    );
    expect(describeInvalidRecord({ ...record, slug: null }, 'json-array')).to.equal(
      'element 12: capacity_mw must be >= 0',
    );
    const hostile = { line: 2, slug: 'a\u001b[2J', problems: [{ field: 'x', message: 'bad\u202e' }] };
    const described = describeInvalidRecord(hostile, 'postgres');
    expect(described.startsWith('row 2')).to.equal(true);
    expect(described).to.not.include('\u001b').and.not.include('\u202e');
  });

  it('stops a reindex listing the first 20 invalid records and how many more, with the invalid-records exit', () => {
    const builder = new SourceReportBuilder('ndjson');
    for (let line = 1; line <= 23; line++)
      builder.add({ line, slug: `s${line}`, problems: [{ field: 'slug', message: 'bad' }] });
    builder.add(checkItem({ line: 24, value: ppaRecord('ok') }));
    const error = new InvalidSourceError(builder.report as SourceReport);
    expect(error.exitCode).to.equal(EXIT_CODES.invalidRecords);
    const lines = error.message.split('\n');
    expect(lines[0]).to.equal('23 invalid record(s) of 24; nothing was indexed:');
    expect(lines.slice(1, 21)).to.have.length(20);
    expect(lines[1]).to.equal('  line 1 (slug "s1"): slug bad');
    expect(lines.at(-1)).to.equal('  … and 3 more');
    expect(error.summary).to.equal('23 invalid record(s) of 24 (listed above)');
    expect(error.listed).to.have.length(20);
  });
});
