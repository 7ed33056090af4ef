// Naming the field of an NDJSON line that cannot be parsed: too long, not UTF-8, not JSON.
import { expect } from 'chai';
import { JsonPathScanner } from '../../../../indexer/sources/jsonPathScanner.js';
import {
  diagnoseInvalidJson,
  diagnoseInvalidUtf8,
  firstInvalidUtf8,
  MAX_LINE_BYTES,
  OverlongLine,
} from '../../../../indexer/sources/lineDiagnosis.js';

function overlong(text: string, chunkBytes = 65_536): ReturnType<OverlongLine['finish']> {
  const line = new OverlongLine();
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunkBytes) line.write(bytes.subarray(at, at + chunkBytes));
  return line.finish();
}

function invalidJson(text: string): ReturnType<typeof diagnoseInvalidJson> {
  try {
    JSON.parse(text);
  } catch (error) {
    return diagnoseInvalidJson(text, error);
  }
  throw new Error(`${text} parsed`);
}

const big = (n: number) => 'x'.repeat(n);
const LIMIT = 'a line may hold at most 1048576 bytes (1 MiB)';

describe('indexer: JsonPathScanner', () => {
  it('knows the field at any offset, through objects and arrays, escapes and stray bytes', () => {
    const scanner = new JsonPathScanner();
    scanner.write(Buffer.from('{"slug":"a-b","a":{"b\\"":[1, {"c":"x\\"'));
    scanner.write(Uint8Array.from([0xff, 0x22 /* " ends the string */]));
    expect(scanner.path()).to.deep.equal(['a', 'b"', 1, 'c']);
    scanner.write(Buffer.from('}, "tail"'));
    expect(scanner.path()).to.deep.equal(['a', 'b"', 2]);
    scanner.write(Buffer.from(']}, '));
    expect(scanner.path(), 'between two fields').to.deep.equal([]);
    expect(scanner.slug).to.equal('a-b');
    expect(scanner.lastField).to.deep.equal(['a']);
  });
});

describe('indexer: OverlongLine', () => {
  it('names the deepest field that holds half of the line', () => {
    const text = JSON.stringify({ slug: 's', documents: [{ title: 't' }, { title: big(MAX_LINE_BYTES) }] });
    expect(overlong(text)).to.deep.equal({
      slug: 's',
      problems: [
        {
          field: 'documents.1.title',
          message: `is a string of ${MAX_LINE_BYTES + 2} bytes, in a line of ${text.length} bytes; ${LIMIT}`,
        },
      ],
    });
  });

  it('counts the items of a long list', () => {
    const features = Array.from({ length: 120_000 }, (_, i) => `feature_${i}`);
    const text = JSON.stringify({ risk_features: features, slug: 'after-the-list' });
    const { slug, problems } = overlong(text, 1000);
    expect(slug).to.equal('after-the-list');
    expect(problems[0]!.field).to.equal('risk_features');
    expect(problems[0]!.message).to.match(/^is 120000 items, \d+ bytes, in a line of \d+ bytes/);
  });

  it('names a value the line ends inside, then the largest field, then the line', () => {
    expect(overlong(`{"slug":"s","project_name":"${big(MAX_LINE_BYTES)}`).problems[0]).to.deep.include({
      field: 'project_name',
      message: `is still open after ${MAX_LINE_BYTES + 1} bytes, in a line of ${MAX_LINE_BYTES + 28} bytes; ${LIMIT}`,
    });
    const spread = JSON.stringify({ a: big(450_000), b: big(400_000), c: big(400_000) });
    expect(overlong(spread).problems[0]).to.deep.include({ field: 'a' });
    expect(overlong(spread).problems[0]!.message).to.match(/^is the largest field \(450002 bytes\)/);
    expect(overlong(big(MAX_LINE_BYTES + 1)).problems[0]).to.deep.equal({
      field: '(line)',
      message: `is longer than 1048576 bytes (1 MiB): ${MAX_LINE_BYTES + 1} bytes`,
    });
  });
});

describe('indexer: invalid UTF-8 in a line', () => {
  it('finds the first byte that TextDecoder refuses, for any bytes', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const interesting = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0];
    const more = [0x90, 0xf4, 0x8f, 0xf5, 0xff];
    const pool = [...interesting, ...more];
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 5000; run++) {
      const bytes = Uint8Array.from(
        { length: 1 + Math.floor(random() * 6) },
        () => pool[Math.floor(random() * pool.length)]!,
      );
      let valid = true;
      try {
        decoder.decode(bytes);
      } catch {
        valid = false;
      }
      const offset = firstInvalidUtf8(bytes);
      expect(offset === -1, `${Buffer.from(bytes).toString('hex')}: ${offset}`).to.equal(valid);
      if (!valid) {
        // Everything before the offset decodes: it is the first bad character.
        expect(() => decoder.decode(bytes.subarray(0, offset))).to.not.throw();
      }
    }
  });

  it('names the field the bad byte sits in, and the slug wherever it is', () => {
    const line = Buffer.concat([
      Buffer.from('{"project_name":"Kah'),
      Buffer.from([0xff]),
      Buffer.from('ne","slug":"kahone-solar"}'),
    ]);
    expect(diagnoseInvalidUtf8(line)).to.deep.equal({
      slug: 'kahone-solar',
      problems: [{ field: 'project_name', message: 'is not valid UTF-8 (byte 0xff at byte 20 of the line)' }],
    });
    const inKey = Buffer.concat([Buffer.from('{"na'), Buffer.from([0xc3]), Buffer.from('me":1}')]);
    expect(diagnoseInvalidUtf8(inKey).problems).to.deep.equal([
      { field: '(line)', message: 'is not valid UTF-8 (byte 0xc3 at byte 4 of the line, outside any field)' },
    ]);
  });
});

describe('indexer: a line that is not JSON', () => {
  it('names the field where it breaks, the field after which it breaks, or says it is not JSON', () => {
    const truncated = invalidJson('{"slug":"s","versions":[{"version":1,"summary":"COD ext');
    expect(truncated.slug).to.equal('s');
    expect(truncated.problems[0]!.field).to.equal('versions.0.summary');
    expect(truncated.problems[0]!.message).to.match(/^is where the line stops being valid JSON: /);

    const inKey = invalidJson('{"slug":"s","refere');
    expect(inKey.problems[0]!.field).to.equal('(line)');
    expect(inKey.problems[0]!.message).to.match(/^is not valid JSON after the field slug: /);

    const prose = invalidJson('hello world');
    expect(prose).to.deep.include({ slug: null });
    expect(prose.problems[0]!.message).to.match(/^is not JSON, so no field of it can be checked: /);
  });
});
