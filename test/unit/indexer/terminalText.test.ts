// Text from a source on the operator's terminal: controls and bidi marks shown, never obeyed.
import { expect } from 'chai';
import { quoted, terminalSafe } from '../../../indexer/terminalText.js';

describe('indexer/terminalText', () => {
  it('writes every control and bidi character as a visible escape, and leaves the rest', () => {
    expect(terminalSafe('a\u001b[31mred\u0007')).to.equal('a\\u{1b}[31mred\\u{7}');
    expect(terminalSafe('x\u202ey\u2066z\u2028')).to.equal('x\\u{202e}y\\u{2066}z\\u{2028}');
    expect(terminalSafe('São João – ok')).to.equal('São João – ok');
  });

  it('quotes a value, its own quotes escaped', () => {
    expect(quoted('kahone-"solar"\n')).to.equal('"kahone-\\"solar\\"\\u{a}"');
  });
});
