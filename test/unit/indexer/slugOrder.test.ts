import { expect } from 'chai';
import { compareBytes, vanishedSlugs } from '../../../indexer/slugOrder.js';

async function* from(values: string[]): AsyncGenerator<string> {
  yield* values;
}

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const value of iterable) out.push(value);
  return out;
}

describe('indexer/reconcile', () => {
  it('yields the indexed slugs that are not rows, both lists ascending', async () => {
    const indexed = ['a-1', 'b-2', 'c-3', 'd-4', 'z-9'];
    const rows = ['a-1', 'a-2', 'c-3', 'e-5'];
    expect(await collect(vanishedSlugs(from(indexed), from(rows)))).to.deep.equal(['b-2', 'd-4', 'z-9']);
  });

  it('everything vanished when there are no rows; nothing when the index is empty', async () => {
    expect(await collect(vanishedSlugs(from(['a', 'b']), from([])))).to.deep.equal(['a', 'b']);
    expect(await collect(vanishedSlugs(from([]), from(['a'])))).to.deep.equal([]);
  });

  it('orders by UTF-8 bytes, as keyword sorts and COLLATE "C" do', () => {
    expect(compareBytes('a-10', 'a-9')).to.be.below(0);
    expect(compareBytes('z', '\u00e9')).to.be.below(0);
    // UTF-16 order would put U+FF5E (a BMP code unit) after a surrogate pair's first unit; bytes do not.
    expect(compareBytes('\uff5e', '\u{1f600}')).to.be.below(0);
    expect(compareBytes('same', 'same')).to.equal(0);
    expect(compareBytes('ab', 'abc')).to.be.below(0);
    expect(compareBytes('abc', 'ab')).to.be.above(0);
    expect(compareBytes('\u{1f600}', '\u{1f601}')).to.be.below(0); // differ in the low surrogate
    expect(compareBytes('\ud7ff', '\ue000')).to.be.below(0);
    expect(compareBytes('\u{10000}', '\uffff')).to.be.above(0);
  });

  it('agrees with comparing the encoded bytes on every pair of a mixed set', () => {
    const all = ['', 'a', 'a-1', 'a-10', 'a-9', 'ab', 'z', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000'];
    all.push('\uffff', '\u{10000}', '\u{1f600}', 'a\u{1f600}', 'a\uffff');
    for (const a of all)
      for (const b of all)
        expect(Math.sign(compareBytes(a, b)), `${a} ${b}`).to.equal(
          Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))),
        );
  });
});
