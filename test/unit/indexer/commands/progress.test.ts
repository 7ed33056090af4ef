// commands/progress: a reindex's progress on stderr. Checked with streams of the test's own: on a terminal, a bar a
// phase (validate: bytes read and records; load: documents of the published total), a new bar when the phase
// changes; elsewhere, JSON lines a log collector reads, a phase's start always written and then at most one line per
// interval.
import { expect } from 'chai';
import { createProgressReporter } from '../../../../indexer/commands/progress.js';

/** A stream that keeps what is written; a terminal's cursor calls do nothing. */
function stream(isTTY: boolean): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const fake = {
    isTTY,
    columns: 120,
    write: (text: string) => written.push(text) > 0,
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    on: () => fake,
    removeListener: () => fake,
  };
  return { stream: fake as unknown as NodeJS.WriteStream, written };
}

describe('indexer/commands/progress', () => {
  it('draws a bar a phase on a terminal: bytes and records while validating, documents while loading', () => {
    const terminal = stream(true);
    const reporter = createProgressReporter(terminal.stream);
    reporter.onProgress({ phase: 'validate', records: 1000, bytes: 250, totalBytes: 1000 });
    reporter.onProgress({ phase: 'validate', records: 4000, bytes: 1000, totalBytes: 1000 });
    reporter.onProgress({ phase: 'load', indexed: 1000, total: 4000 });
    reporter.stop();
    // Each frame is a write of its own, between the cursor's escape sequences.
    const frames = terminal.written.filter((text) => /\|/.test(text));
    expect(frames.filter((frame) => frame.startsWith('validate')).at(-1)).to.match(
      /^validate \|█+\| 100% \| 4000 records read$/,
    );
    expect(frames.filter((frame) => frame.startsWith('load')).at(-1)).to.match(
      /^load {5}\|█+░+\| 25% \| 1000\/4000 documents \| /,
    );
    // The validate bar was ended (a line feed) before the load bar began.
    const loadStart = terminal.written.findIndex((text) => text.startsWith('load'));
    expect(terminal.written.slice(0, loadStart)).to.include('\n');
  });

  it('writes JSON lines elsewhere: each phase’s start, then at most one a interval', () => {
    const pipe = stream(false);
    const reporter = createProgressReporter(pipe.stream, 60_000);
    const started = Date.now();
    reporter.onProgress({ phase: 'validate', records: 1000, bytes: 10, totalBytes: 100 });
    reporter.onProgress({ phase: 'validate', records: 2000, bytes: 20, totalBytes: 100 });
    reporter.onProgress({ phase: 'load', indexed: 500, total: 2000 });
    reporter.onProgress({ phase: 'load', indexed: 1000, total: 2000 });
    reporter.stop();
    const lines = pipe.written.map((line) => {
      expect(line.endsWith('\n')).to.equal(true);
      return JSON.parse(line) as { progress: unknown; time: string };
    });
    expect(lines.map((line) => line.progress)).to.deep.equal([
      { phase: 'validate', records: 1000, bytes: 10, totalBytes: 100 },
      { phase: 'load', indexed: 500, total: 2000 },
    ]);
    expect(Date.parse(lines[0]!.time)).to.be.within(started, Date.now());

    const every = stream(false);
    const eager = createProgressReporter(every.stream, 0);
    for (let indexed = 1; indexed <= 3; indexed++) eager.onProgress({ phase: 'load', indexed, total: 3 });
    expect(every.written).to.have.length(3);
  });
});
