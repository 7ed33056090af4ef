// indexerLog: the indexer's log on stderr (its format by terminal and the short text line of an entry are also
// checked from commands/failure.test.ts). Checked here: the level filters entries and debug or trace adds stacks;
// a text line quotes the values that need it and writes others as JSON, names an unknown level by its number,
// leaves out pino's bookkeeping, and makes a hostile message terminal-safe; an error logged at info keeps its
// message but not its stack.
import { expect } from 'chai';
import {
  createIndexerLogger,
  DEFAULT_LOG_LEVEL,
  isDebug,
  LOG_FORMATS,
  textLogLine,
} from '../../../indexer/indexerLog.js';

function textLog(level: string): { log: ReturnType<typeof createIndexerLogger>; lines: string[] } {
  const lines: string[] = [];
  return { log: createIndexerLogger('text', level, { write: (text) => lines.push(text) }), lines };
}

describe('indexer/indexerLog', () => {
  it('writes the entries at or above its level; debug and trace are the levels with stacks', () => {
    const { log, lines } = textLog('warn');
    log.info('not written');
    log.warn('written');
    log.error('written too');
    expect(lines.map((line) => line.slice(9))).to.deep.equal(['WARN  written\n', 'ERROR written too\n']);
    expect([isDebug('debug'), isDebug('trace'), isDebug('info'), isDebug('warn')]).to.deep.equal([
      true,
      true,
      false,
      false,
    ]);
    expect(DEFAULT_LOG_LEVEL).to.equal('info');
    expect(LOG_FORMATS).to.deep.equal(['json', 'text']);
  });

  it('quotes values with spaces, quotes, = or nothing in them, and writes other values as JSON', () => {
    const line = textLogLine(
      JSON.stringify({
        level: 30,
        time: Date.UTC(2026, 0, 1, 12, 34, 56),
        pid: 1,
        hostname: 'h',
        name: 'ppa-indexer',
        msg: 'batch applied',
        index: 'ppas-1',
        note: 'two words',
        eq: 'a=b',
        empty: '',
        changes: 3,
        slugs: ['a', 'b'],
        guard: null,
      }),
    );
    expect(line).to.equal(
      '12:34:56 INFO  batch applied index=ppas-1 note="two words" eq="a=b" empty="" changes=3 slugs=["a","b"] guard=null\n',
    );
  });

  it('names an unknown level by its number, and makes a hostile message terminal-safe', () => {
    expect(textLogLine('{"level":35,"msg":"odd"}')).to.equal('35    odd\n');
    const hostile = textLogLine(JSON.stringify({ level: 40, msg: 'slug \u001b[2J', slug: 'x\u202ey' }));
    expect(hostile).to.not.include('\u001b').and.not.include('\u202e');
    expect(hostile.startsWith('WARN  slug ')).to.equal(true);
  });

  it('writes an error’s message at info, and its stack at debug only', () => {
    const info = textLog('info');
    info.log.error({ err: new TypeError('bad value') }, 'failed');
    expect(info.lines).to.have.length(1);
    expect(info.lines[0]).to.match(/ ERROR failed err="bad value"\n$/);
    const debug = textLog('debug');
    debug.log.error({ err: new TypeError('bad value') }, 'failed');
    expect(debug.lines[0]).to.match(/ err="bad value"\nTypeError: bad value\n {4}at /);
  });
});
