// sources/jsonPathScanner: JSON text followed byte by byte without building a value, to name the field of a line
// that cannot be parsed whole. Checked here (its use by lineDiagnosis.ts is tested beside that module): every
// string, object and array reported as it ends with its field, byte offsets and item count; the top-level slug
// kept (a nested `slug` is not the record's); where the innermost open value began; input cut anywhere giving the
// same answers; a stray closing bracket or text after the value stopping the scan; long keys cut; field names.
import { expect } from 'chai';
import {
  fieldName,
  JsonPathScanner,
  type ScannedValue,
} from '../../../../indexer/sources/jsonPathScanner.js';

function scanned(text: string, chunk = Infinity): { scanner: JsonPathScanner; values: ScannedValue[] } {
  const values: ScannedValue[] = [];
  const scanner = new JsonPathScanner((value) => values.push(value));
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += Math.min(chunk, bytes.length))
    scanner.write(bytes.subarray(at, at + chunk));
  return { scanner, values };
}

describe('indexer/sources/jsonPathScanner', () => {
  const line = '{"slug":"kahone","documents":[{"title":"PPA é"},{"slug":"nested"}],"n":[1,2,3]}';

  it('reports each string, object and array as it ends: its field, its bytes and an array’s items', () => {
    const { values, scanner } = scanned(line);
    const described = values.map(({ path, kind, start, end, items }) => ({
      field: fieldName(path),
      kind,
      text: Buffer.from(line).subarray(start, end).toString(),
      ...(items === undefined ? {} : { items }),
    }));
    expect(described).to.deep.equal([
      { field: 'slug', kind: 'string', text: '"kahone"' },
      { field: 'documents.0.title', kind: 'string', text: '"PPA é"' },
      { field: 'documents.0', kind: 'object', text: '{"title":"PPA é"}' },
      { field: 'documents.1.slug', kind: 'string', text: '"nested"' },
      { field: 'documents.1', kind: 'object', text: '{"slug":"nested"}' },
      { field: 'documents', kind: 'array', text: '[{"title":"PPA é"},{"slug":"nested"}]', items: 2 },
      { field: 'n', kind: 'array', text: '[1,2,3]', items: 3 },
      { field: '', kind: 'object', text: line },
    ]);
    expect(scanner.slug, 'the record’s own slug, not a nested one').to.equal('kahone');
    expect(scanner.lastField).to.deep.equal(['n']);
    expect(scanner.offset).to.equal(Buffer.byteLength(line));
  });

  it('gives the same answers whatever the chunks the bytes arrive in', () => {
    const whole = scanned(line).values;
    for (const chunk of [1, 2, 7])
      expect(scanned(line, chunk).values, `chunks of ${chunk}`).to.deep.equal(whole);
  });

  it('knows where the innermost open value began, for a line that breaks off', () => {
    const text = '{"slug":"a","documents":[{"title":"cut he';
    const { scanner } = scanned(text);
    expect(scanner.path()).to.deep.equal(['documents', 0, 'title']);
    expect(text.slice(scanner.openStart()!)).to.equal('"cut he');
    expect(scanned('{"a":1}').scanner.openStart()).to.equal(null);
    expect(scanned('{"a":[1,').scanner.openStart()).to.equal(5);
  });

  it('reads escaped quotes and \\u escapes in keys and in the slug', () => {
    const { scanner } = scanned('{"sl\\u0075g":"a\\"b","k\\"ey":{"x":');
    expect(scanner.slug).to.equal('a"b');
    expect(scanner.path()).to.deep.equal(['k"ey', 'x']);
  });

  it('stops at a closing bracket that closes nothing open, and at text after the value', () => {
    const stray = scanned('{"a":[1}, "b":"x"}');
    expect(stray.values).to.deep.equal([]);
    expect(stray.scanner.path()).to.deep.equal(['a', 0]);
    const after = scanned('{"a":"x"} {"b":"y"}');
    expect(after.values.map((value) => fieldName(value.path))).to.deep.equal(['a', '']);
    expect(after.scanner.offset, 'every byte is still counted').to.equal(19);
  });

  it('keeps at most 512 bytes of a key, for messages', () => {
    const key = 'k'.repeat(600);
    const { scanner } = scanned(`{"${key}":[`);
    expect(scanner.path()).to.deep.equal(['k'.repeat(512)]);
    expect(fieldName(['documents', 3, 'title'])).to.equal('documents.3.title');
  });
});
