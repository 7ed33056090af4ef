// readSource's NDJSON reading: lines are cut in the bytes, so lines and multi-byte characters that straddle
// the 64 KiB read chunks, CRLF endings, a BOM, blank lines and a last line without a newline all come out whole.
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  MAX_LINE_BYTES,
  readSource,
  SourceSyntaxError,
  type SourceItem,
} from '../../../../indexer/sources/source.js';

// A full garbage collection on demand: a heap measured without one counts whatever garbage the last scavenge
// left (from this test or an earlier one), which made the retention check below depend on GC timing.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

async function readAll(path: string): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for await (const item of readSource(path, 'ndjson')) items.push(item);
  return items;
}

describe('indexer: readSource (NDJSON)', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'indexer-source-'))));
  after(async () => rm(dir, { recursive: true, force: true }));

  it('keeps lines and multi-byte characters whole across read chunks', async () => {
    // 3-byte characters at every offset, so some straddle each 64 KiB chunk boundary; one line spans chunks.
    const values = Array.from({ length: 400 }, (_, i) => ({
      i,
      text: '’ć✓'.repeat(i % 7 === 0 ? 30_000 : i),
    }));
    const path = join(dir, 'chunks.ndjson');
    await writeFile(path, `\uFEFF${values.map((value) => JSON.stringify(value)).join('\r\n')}\n\n`);
    const items = await readAll(path);
    expect(items.map((item) => ('value' in item ? item.value : item))).to.deep.equal(values);
    expect(items.map((item) => item.line)).to.deep.equal(values.map((_, i) => i + 1));
  });

  it('reads a last line without a newline, and reports a bad line by number', async () => {
    const path = join(dir, 'last.ndjson');
    await writeFile(path, '{"a":1}\n{oops\n{"b":"é"}');
    const items = await readAll(path);
    expect(items[0]).to.deep.equal({ line: 1, value: { a: 1 } });
    expect(items[1]).to.include({ line: 2, unparsed: true, slug: null });
    const [problem] = (items[1] as { problems: { field: string; message: string }[] }).problems;
    expect(problem!.field).to.equal('(line)');
    // V8's own wording follows; it names the position (Node 20 and 22 word it differently).
    expect(problem!.message).to.match(/^is not JSON, so no field of it can be checked: .*at position 1\b/);
    expect(items[2]).to.deep.equal({ line: 3, value: { b: 'é' } });
  });

  it('reports a line past 1 MiB, naming its longest field, without keeping it, and reads the lines after it', async () => {
    const path = join(dir, 'long.ndjson');
    const long = JSON.stringify({ slug: 'a-long-one', text: 'x'.repeat(3 * MAX_LINE_BYTES) });
    await writeFile(path, `{"a":1}\n${long}\n{"b":2}\n${'y'.repeat(MAX_LINE_BYTES + 1)}`);
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const items = await readAll(path);
    collectGarbage();
    const retained = process.memoryUsage().heapUsed - before;
    expect(items.map((item) => item.line)).to.deep.equal([1, 2, 3, 4]);
    expect(items[0]).to.deep.equal({ line: 1, value: { a: 1 } });
    expect(items[1]).to.deep.equal({
      line: 2,
      unparsed: true,
      slug: 'a-long-one',
      problems: [
        {
          field: 'text',
          message: `is a string of ${3 * MAX_LINE_BYTES + 2} bytes, in a line of ${Buffer.byteLength(long)} bytes; a line may hold at most 1048576 bytes (1 MiB)`,
        },
      ],
    });
    expect(items[2]).to.deep.equal({ line: 3, value: { b: 2 } });
    expect(items[3]).to.deep.equal({
      line: 4,
      unparsed: true,
      slug: null,
      problems: [
        { field: '(line)', message: `is longer than 1048576 bytes (1 MiB): ${MAX_LINE_BYTES + 1} bytes` },
      ],
    });
    // The 3 MiB line is not kept (as bytes or as a string) once it has been reported.
    expect(retained).to.be.below(3 * MAX_LINE_BYTES);
  });

  it('a line of exactly 1 MiB is still read', async () => {
    const path = join(dir, 'exact.ndjson');
    const text = JSON.stringify({ t: 'z'.repeat(MAX_LINE_BYTES - 8) });
    expect(Buffer.byteLength(text)).to.equal(MAX_LINE_BYTES);
    await writeFile(path, `${text}\n`);
    const items = await readAll(path);
    expect(items).to.have.length(1);
    expect(items[0]).to.have.property('value');
  });

  it('decodes UTF-8 strictly: invalid bytes make the line invalid, naming their field, not U+FFFD', async () => {
    const path = join(dir, 'latin1.ndjson');
    await writeFile(
      path,
      Buffer.concat([
        Buffer.from('{"a":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('","slug":"s"}\n{"b":"café"}\n'),
      ]),
    );
    const items = await readAll(path);
    expect(items[0]).to.deep.equal({
      line: 1,
      unparsed: true,
      slug: 's',
      problems: [{ field: 'a', message: 'is not valid UTF-8 (byte 0xe9 at byte 9 of the line)' }],
    });
    expect(items[1]).to.deep.equal({ line: 2, value: { b: 'café' } });
  });

  it('a JSON array with invalid UTF-8 ends with an error naming the element, not with U+FFFD in a value', async () => {
    const path = join(dir, 'array.json');
    await writeFile(
      path,
      Buffer.concat([Buffer.from('[{"a":1},{"b":"caf'), Buffer.from([0xe9]), Buffer.from('"},{"c":3}]')]),
    );
    const read: SourceItem[] = [];
    let failure: unknown;
    try {
      for await (const item of readSource(path, 'json-array')) read.push(item);
    } catch (error) {
      failure = error;
    }
    expect(failure).to.be.instanceOf(SourceSyntaxError);
    expect((failure as Error).message).to.contain('not valid UTF-8');
    expect(JSON.stringify(read)).to.not.contain('\uFFFD');
  });
});
