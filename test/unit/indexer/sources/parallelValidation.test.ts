// Pass 1 over byte ranges on several threads (indexer/sources/parallelValidation.ts) must report exactly what one
// reader reports: the same counts, the same invalid lines and problems in the same order, duplicates found
// across ranges, and line numbers of the whole file, whatever the number of ranges.
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MAX_READERS,
  MIN_RANGE_BYTES,
  validateNdjsonFile,
  validationReaders,
} from '../../../../indexer/sources/parallelValidation.js';
import { MAX_LINE_BYTES, ndjsonRanges } from '../../../../indexer/sources/source.js';
import { validateSource } from '../../../../indexer/sources/validateSource.js';
import { generateRecords } from '../../../../tools/generate/generateRecords.js';

describe('indexer: pass 1 in byte ranges on several threads', function () {
  this.timeout(60_000);
  let dir: string;
  let awkward: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'indexer-parallel-'));
    const records = [...generateRecords({ seed: 7, count: 600 })];
    const lines: string[] = records.map((record) => JSON.stringify(record));
    // Problems spread over the file, so every cut lands among them: a duplicate slug and a duplicate reference
    // code far from their first occurrence (another range), schema problems, a non-JSON line, invalid UTF-8,
    // a line past the size limit, blank lines and CRLF endings; a BOM first, no newline last.
    lines[550] = JSON.stringify({ ...records[550], slug: records[3]!.slug });
    lines[560] = JSON.stringify({ ...records[560], reference_code: records[10]!.reference_code });
    lines[570] = JSON.stringify({
      ...records[570],
      slug: records[3]!.slug,
      reference_code: records[4]!.reference_code,
    });
    lines[200] = JSON.stringify({ ...records[200], capacity_mw: -1 });
    lines[300] = '{not json';
    lines[320] = JSON.stringify({ slug: 'x'.repeat(10), text: 'y'.repeat(MAX_LINE_BYTES + 10) });
    lines[450] = '';
    lines[451] = '   ';
    const text = `\uFEFF${lines.map((line, i) => (i % 50 === 7 ? `${line}\r` : line)).join('\n')}`;
    const bytes = Buffer.from(text);
    const bad = Buffer.from(`\n{"slug":"bad-utf8","project_name":"caf\xe9"}`, 'latin1');
    awkward = join(dir, 'awkward.ndjson');
    await writeFile(
      awkward,
      Buffer.concat([
        bytes.subarray(0, bytes.lastIndexOf(0x0a)),
        bad,
        bytes.subarray(bytes.lastIndexOf(0x0a)),
      ]),
    );
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('reports what a single reader reports, for 2 to 7 ranges', async () => {
    const single = await validateSource(awkward, 'ndjson');
    expect(single.invalid).to.be.at.least(7);
    expect(single.invalidRecords.map((record) => record.problems[0]!.field)).to.include.members([
      'slug',
      'reference_code',
      'capacity_mw',
      '(line)',
    ]);
    const size = (await readFile(awkward)).length;
    for (const readers of [2, 3, 4, 7]) {
      expect((await ndjsonRanges(awkward, size, readers)).length, `${readers} ranges`).to.equal(readers);
      const parallel = await validateNdjsonFile(awkward, size, readers);
      expect(parallel, `${readers} readers`).to.deep.equal(single);
    }
  });

  it('cuts only just after a newline, covers the file without a gap, and never makes an empty range', async () => {
    const file = await readFile(awkward);
    for (const parts of [2, 5, 50, 5000]) {
      const ranges = await ndjsonRanges(awkward, file.length, parts);
      expect(ranges[0]!.start).to.equal(0);
      expect(ranges.at(-1)!.end).to.equal(file.length);
      for (const [i, range] of ranges.entries()) {
        expect(range.end).to.be.greaterThan(range.start);
        if (i > 0) {
          expect(range.start).to.equal(ranges[i - 1]!.end);
          expect(file[range.start - 1]).to.equal(0x0a);
        }
      }
    }
    const oneLine = join(dir, 'one-line.ndjson');
    await writeFile(oneLine, JSON.stringify({ a: 'b'.repeat(200_000) }));
    expect(await ndjsonRanges(oneLine, 200_008, 4)).to.deep.equal([{ start: 0, end: 200_008 }]);
  });

  it("stops its workers and rejects when the run is interrupted, in its own range or a worker's", async () => {
    const size = (await readFile(awkward)).length;
    for (const stopAt of [100, 300, 500]) {
      const controller = new AbortController();
      let progress = 0;
      const run = validateNdjsonFile(awkward, size, 3, {
        signal: controller.signal,
        onRecord: (read) => {
          progress = read;
          if (read === stopAt) controller.abort(new Error('SIGINT'));
        },
      });
      const error = await run.then(
        () => null,
        (caught: unknown) => caught as Error,
      );
      expect(error?.name, `stopped at ${stopAt}`).to.equal('AbortError');
      expect(progress).to.be.below(600);
    }
  });

  it('uses one reader per processor, up to four, and one per 8 MiB at least', () => {
    expect(validationReaders(MIN_RANGE_BYTES - 1, 8)).to.equal(1);
    expect(validationReaders(2 * MIN_RANGE_BYTES, 8)).to.equal(2);
    expect(validationReaders(100 * MIN_RANGE_BYTES, 2)).to.equal(2);
    expect(validationReaders(100 * MIN_RANGE_BYTES, 1)).to.equal(1);
    expect(validationReaders(100 * MIN_RANGE_BYTES, 64)).to.equal(MAX_READERS);
  });
});
