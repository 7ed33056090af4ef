// CSV as every CSV answer writes it.
import { expect } from 'chai';
import { csvCell, csvRows } from '../../../../src/present/csv.js';

describe('present/csv', () => {
  it('makes a cell: empty for null, lists joined, a formula start quoted in text only', () => {
    expect(csvCell(null)).to.equal('');
    expect(csvCell(undefined)).to.equal('');
    expect(csvCell(['x', 'y'])).to.equal('x;y');
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1`)).to.equal(`'${start}1`);
    expect(csvCell(-5)).to.equal('-5');
    expect(csvCell(0.25)).to.equal('0.25');
  });

  it('writes RFC 4180 rows: CRLF, quoted when needed, quotes doubled', () => {
    expect(
      csvRows([
        ['a', 'b,c'],
        ['say "hi"', 'two\nlines'],
      ]),
    ).to.equal('a,"b,c"\r\n"say ""hi""","two\nlines"\r\n');
  });
});
