// The closing sentence of a failed run, and the text form of the log: built from real errors of each kind.
import { errors } from '@elastic/elasticsearch';
import { expect } from 'chai';
import { CommanderError } from 'commander';
import { readEsSettings } from '../../../../settings/elasticsearch.js';
import { InterruptedError, LockedError } from '../../../../indexer/errors.js';
import { describeFailure, failureSentence, type RunContext } from '../../../../indexer/commands/failure.js';
import { createIndexerLogger, defaultLogFormat, textLogLine } from '../../../../indexer/indexerLog.js';
import { fileSourceError } from '../../../../indexer/sources/sourceErrors.js';

function sentence(error: unknown, context: RunContext): string {
  return failureSentence(error, describeFailure(error, context), context);
}

const reindexing: RunContext = { command: 'reindex', alias: 'ppas', esNodes: ['http://127.0.0.1:9'] };

describe('indexer: the closing sentence of a failure', () => {
  it('names what failed, the live alias, and what to do next, on one line', () => {
    const refused = new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9');
    expect(sentence(refused, reindexing)).to.equal(
      'ppa-indexer reindex failed (exit 3): Elasticsearch at http://127.0.0.1:9 cannot be reached ' +
        '(connect ECONNREFUSED 127.0.0.1:9); the live alias "ppas" was not changed. ' +
        'Next: check ES_URL and that Elasticsearch is running, then run again.',
    );
  });

  it('gives each kind of failure its exit code', () => {
    const cases: [unknown, number, RegExp][] = [
      [
        new CommanderError(
          1,
          'commander.invalidArgument',
          "error: option '--keep <n>' argument '0' is invalid",
        ),
        2,
        /--keep/,
      ],
      [
        (() => {
          try {
            readEsSettings({ ES_REQUEST_TIMEOUT_MS: 'soon' });
          } catch (e) {
            return e;
          }
        })(),
        2,
        /ES_REQUEST_TIMEOUT_MS must be/,
      ],
      [
        fileSourceError('/data', Object.assign(new Error('EISDIR'), { code: 'EISDIR' })),
        2,
        /"\/data" is a directory/,
      ],
      [fileSourceError('/x', Object.assign(new Error('EACCES'), { code: 'EACCES' })), 2, /permission denied/],
      [new LockedError('another reindex of alias "ppas" is running'), 4, /another reindex/],
      [new InterruptedError('SIGTERM'), 143, /interrupted by SIGTERM/],
      [new TypeError('x is not a function'), 3, /x is not a function/],
    ];
    for (const [error, exitCode, what] of cases) {
      const failure = describeFailure(error, reindexing);
      expect(failure.exitCode, String(error)).to.equal(exitCode);
      expect(failure.what).to.match(what);
    }
  });

  it('says what the failure means for the live index, by command', () => {
    const locked = new LockedError('another sync of alias "ppas" is running');
    expect(sentence(new InterruptedError('SIGINT'), reindexing)).to.match(
      /^ppa-indexer reindex stopped \(exit 130\): interrupted by SIGINT; the half-built index was deleted and the live alias "ppas" was not changed\. Next: run it again when ready\.$/,
    );
    expect(sentence(locked, { command: 'sync', alias: 'ppas' })).to.include(
      'nothing was applied to the live index',
    );
    expect(sentence(new Error('boom'), { command: 'sync', alias: 'ppas', applying: true })).to.include(
      'its high-water mark did not move',
    );
    expect(sentence(new Error('boom'), { command: 'validate' })).to.include(
      'nothing was written (it only reads)',
    );
    expect(sentence(new Error('boom'), { command: 'rollback', alias: 'ppas' })).to.include(
      'the live alias "ppas" was not moved',
    );
  });

  it('keeps control characters from the source off the terminal, and the sentence on one line', () => {
    const line = sentence(
      fileSourceError('/tmp/\u001b[2Jx\ny', Object.assign(new Error(''), { code: 'ENOENT' })),
      reindexing,
    );
    expect([...line].filter((c) => c.charCodeAt(0) < 0x20)).to.deep.equal([]);
    expect(line).to.include('/tmp/\\u001b[2Jx\\ny');
    const raw = sentence(new Error('slug "\u001b]0;owned\u0007x"\n  at line 2'), reindexing);
    expect([...raw].filter((c) => c.charCodeAt(0) < 0x20)).to.deep.equal([]);
    expect(raw).to.include('slug "\\u{1b}]0;owned\\u{7}x" at line 2');
  });
});

describe('indexer: the log on stderr', () => {
  it('is text on a terminal and JSON lines elsewhere', () => {
    expect(defaultLogFormat({ isTTY: true })).to.equal('text');
    expect(defaultLogFormat({})).to.equal('json');
  });

  it('writes an entry as a short text line, the stack only when the entry has one (debug)', () => {
    const lines: string[] = [];
    const stderr = { write: (text: string) => lines.push(text) };
    createIndexerLogger('text', 'info', stderr).warn(
      { slug: 'kahone solar', err: new Error('refused') },
      'skipped: line 7',
    );
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^\d\d:\d\d:\d\d WARN {2}skipped: line 7 slug="kahone solar" err=refused\n$/);

    createIndexerLogger('text', 'debug', stderr).error({ err: new Error('refused') }, 'failed');
    expect(lines[1]).to.match(/^\d\d:\d\d:\d\d ERROR failed err=refused\nError: refused\n {4}at /);
  });

  it('reads any pino line; a line that is not JSON passes as it is', () => {
    expect(textLogLine('{"level":30,"time":0,"msg":"source validated","read":500}')).to.equal(
      '00:00:00 INFO  source validated read=500\n',
    );
    expect(textLogLine('not json')).to.equal('not json\n');
  });
});
