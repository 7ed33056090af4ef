// One test per row of the indexer's exit-code table (indexer/exitCodes.ts, docs/operations.md), each running the
// real CLI as a process, and the closing sentence every failure ends with, through a pipe and on a terminal.
import { expect } from 'chai';
import { CHECK_TIMEOUT_MS } from '../../indexer/elasticsearch/esClient.js';
import { boundedBy } from '../support/timing.js';
import { spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aliasTarget, dataIndices } from '../../indexer/elasticsearch/aliases.js';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { writeNdjson } from '../../tools/generate/writeNdjson.js';
import { AliasLock } from '../../indexer/elasticsearch/lock.js';
import { BIN_PATH, runCli, startCli, summaryOf, type CliResult } from '../support/indexerCliProcess.js';
import { indexSample, SAMPLE_PATH } from '../support/sampleIndex.js';
import { deleteIndices, ES_URL, freePort, testEsClient, uniqueName } from '../support/services.js';

const sampleLines = readFileSync(SAMPLE_PATH, 'utf8').trimEnd().split('\n');
const isPublished = (line: string) => (JSON.parse(line) as { published: boolean }).published;
const publishedCount = sampleLines.filter(isPublished).length;

function lastLine(output: string): string {
  return output.replace(/\r/g, '').trimEnd().split('\n').at(-1) ?? '';
}

/** The closing sentence: `ppa-indexer <command> failed (exit N): <what>; <live index>. Next: <what to do>.` */
function expectSentence(result: CliResult, command: string, code: number, what: string | RegExp): void {
  expect(result.code, result.stderr).to.equal(code);
  const sentence = lastLine(result.stderr);
  const verb = code >= 128 ? 'stopped' : 'failed';
  expect(sentence.startsWith(`ppa-indexer ${command} ${verb} (exit ${code}): `), sentence).to.equal(true);
  if (typeof what === 'string') expect(sentence).to.include(what);
  else expect(sentence).to.match(what);
  expect(sentence).to.match(/\. Next: .+\.$/);
  expect(result.stderr, 'no stack trace below LOG_LEVEL=debug').to.not.match(/\n\s+at /);
}

describe('indexer: exit codes, one test per row of the table', function () {
  this.timeout(120_000);
  const client = testEsClient();
  let alias: string;
  let workDir: string;

  beforeEach(async () => {
    alias = uniqueName('idx-exit');
    workDir = await mkdtemp(join(tmpdir(), 'indexer-exit-test-'));
  });
  afterEach(async () => {
    await deleteIndices(client, alias);
    await rm(workDir, { recursive: true, force: true });
  });
  after(() => client.close());

  const unchanged = () => `the live alias "${alias}" was not changed`;

  it('0: success, and --if-missing on an alias that exists (nothing to do)', async () => {
    const built = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias]);
    expect(built.code, built.stderr).to.equal(0);
    const again = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias, '--if-missing']);
    expect(again.code, again.stderr).to.equal(0);
    expect(lastLine(again.stderr)).to.equal(
      `alias ${alias} → ${summaryOf(built).index as string} exists: nothing to do (--if-missing)`,
    );
  });

  it('1: a record over a bound (10,000 risk_features) is invalid and named; --skip-invalid indexes the rest', async () => {
    const first = await indexSample(client, alias);
    const lines = [...sampleLines];
    const bloated = JSON.parse(lines[9]!) as { slug: string; published: boolean; risk_features: string[] };
    bloated.risk_features = Array.from({ length: 10_000 }, (_, i) => `feature_${i}`);
    lines[9] = JSON.stringify(bloated);
    const source = join(workDir, 'bloated.ndjson');
    await writeFile(source, `${lines.join('\n')}\n`);

    const refused = await runCli(['reindex', '--source', source, '--alias', alias]);
    expect(refused.stderr).to.include(
      `line 10 (slug "${bloated.slug}"): risk_features must NOT have more than 32 items`,
    );
    expectSentence(refused, 'reindex', 1, `1 invalid record(s) of 500 (listed above); ${unchanged()}`);
    expect(lastLine(refused.stderr)).to.include('pass --skip-invalid to index the valid ones');
    // The JSON log (stderr is a pipe here) carries them as data too.
    const failureEntry = refused.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; invalidRecords?: unknown })
      .find((entry) => entry.level === 50);
    expect(failureEntry?.invalidRecords).to.deep.equal([
      {
        line: 10,
        slug: bloated.slug,
        problems: [{ field: 'risk_features', message: 'must NOT have more than 32 items' }],
      },
    ]);
    expect(await aliasTarget(client, alias)).to.equal(first.index);

    const skipped = await runCli(['reindex', '--source', source, '--alias', alias, '--skip-invalid']);
    expect(skipped.code, skipped.stderr).to.equal(0);
    expect(summaryOf(skipped)).to.include({
      invalid: 1,
      indexed: publishedCount - (bloated.published ? 1 : 0),
    });
    expect((await client.exists({ index: alias, id: bloated.slug })).valueOf()).to.equal(false);
  });

  it('1: a source without a valid published record is refused (an empty index never goes live)', async () => {
    const source = join(workDir, 'unpublished.ndjson');
    await writeFile(source, `${sampleLines.filter((line) => !isPublished(line)).join('\n')}\n`);
    const result = await runCli(['reindex', '--source', source, '--alias', alias]);
    expectSentence(
      result,
      'reindex',
      1,
      /the source has no valid published record .*: refusing to make an empty index live/,
    );
    expect(await aliasTarget(client, alias)).to.equal(null);
  });

  it('2: usage and source errors share one code: a bad option, a missing path, a directory, a path through a file, a PostgreSQL source that refuses', async () => {
    const directory = join(workDir, 'exports');
    await mkdir(directory);
    const pgPort = await freePort();
    const cases: [string[], string, string | RegExp][] = [
      [
        ['reindex', '--source', SAMPLE_PATH, '--alias', alias, '--keep', '0'],
        'reindex',
        "option '--keep <n>' argument '0' is invalid",
      ],
      [
        ['reindex', '--source', join(workDir, 'nope.ndjson'), '--alias', alias],
        'reindex',
        `the source "${join(workDir, 'nope.ndjson')}" does not exist; ${unchanged()}`,
      ],
      [
        ['reindex', '--source', directory, '--alias', alias],
        'reindex',
        `the source "${directory}" is a directory, not a file; ${unchanged()}`,
      ],
      [
        ['validate', '--source', join(SAMPLE_PATH, 'x')],
        'validate',
        'has a file where its path needs a directory',
      ],
      [
        ['reindex', '--source', `postgres://postgres@127.0.0.1:${pgPort}/ppa`, '--alias', alias],
        'reindex',
        new RegExp(
          `the PostgreSQL source 127\\.0\\.0\\.1:${pgPort}/ppa cannot be read \\(connect ECONNREFUSED`,
        ),
      ],
    ];
    // Each fails before it writes anything: the runs are independent processes, started together.
    const results = await Promise.all(cases.map(([args]) => runCli(args)));
    cases.forEach(([, command, what], i) => expectSentence(results[i]!, command, 2, what));
    expect(await aliasTarget(client, alias)).to.equal(null);
  });

  it('3: an unreachable Elasticsearch fails in seconds, before the source is read, naming its URL', async () => {
    const started = performance.now();
    const result = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias], {
      ES_URL: 'http://127.0.0.1:9',
    });
    const tookMs = performance.now() - started;
    expectSentence(
      result,
      'reindex',
      3,
      `Elasticsearch at http://127.0.0.1:9 cannot be reached (connect ECONNREFUSED 127.0.0.1:9); ${unchanged()}. ` +
        'Next: check ES_URL and that Elasticsearch is running, then run again.',
    );
    expect(result.stderr, 'the source was not read').to.not.include('source validated');
    // One health check, each node tried once within CHECK_TIMEOUT_MS (Node's and tsx's start in the slack).
    expect(tookMs).to.be.lessThan(boundedBy(CHECK_TIMEOUT_MS));
  });

  it('3: Elasticsearch refusing a request is named with its reason; the new index is deleted, the alias kept', async () => {
    // An index named like the alias: Elasticsearch refuses to make that name an alias (at the swap).
    await client.indices.create({ index: alias });
    const result = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias]);
    expectSentence(
      result,
      'reindex',
      3,
      new RegExp(
        `Elasticsearch at ${ES_URL.split(',')[0]}.* refused a request: 400 invalid_alias_name_exception: .*; ${unchanged()}`,
      ),
    );
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([]);
  });

  it('4: another reindex holds the lock', async () => {
    const lock = await AliasLock.acquire(client, alias, { owner: 'the first run' });
    try {
      const result = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias]);
      expectSentence(
        result,
        'reindex',
        4,
        new RegExp(`another reindex of alias "${alias}" is running \\(lock held by the first run`),
      );
      expect(lastLine(result.stderr)).to.include(
        'Next: wait for that run to end (ppa-indexer status shows the lock)',
      );
    } finally {
      await lock.release();
    }
  });

  it('5: the --max-removed guard stops a reindex that would remove too many before its swap', async () => {
    const first = await indexSample(client, alias);
    const source = join(workDir, 'half.ndjson');
    const lines = readFileSync(SAMPLE_PATH, 'utf8').trimEnd().split('\n');
    await writeFile(source, `${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`);
    const result = await runCli(['reindex', '--source', source, '--alias', alias]);
    expectSentence(
      result,
      'reindex',
      5,
      new RegExp(
        `the new generation would remove \\d+ of the \\d+ live PPAs \\(\\d+(\\.\\d)?%\\), more than --max-removed 5% ` +
          `allows; the new index was deleted and the live alias "${alias}" was not changed\\. Next: .*--max-removed 100%`,
      ),
    );
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([first.index]);
    const help = await runCli(['reindex', '--help']);
    expect(help.stdout).to.match(/\n {2}5 +the --max-removed guard/);
    expect(help.stdout).to.include('--max-removed <share|count>');
  });

  it('130: SIGINT mid-run deletes the half-built index and says so last', async () => {
    const first = await indexSample(client, alias);
    const source = join(workDir, 'large.ndjson');
    const output = createWriteStream(source);
    await writeNdjson(generateRecords({ seed: 98, count: 20_000 }), output);
    await new Promise((resolve) => output.end(resolve));

    const running = startCli(['reindex', '--source', source, '--alias', alias, '--batch-size', '100']);
    await running.waitForStderr('"phase":"load"');
    running.child.kill('SIGINT');
    const result = await running.result;
    expectSentence(
      result,
      'reindex',
      130,
      `interrupted by SIGINT; the half-built index was deleted and the live alias "${alias}" was not changed`,
    );
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([first.index]);
  });
});

describe('indexer: a failure ends with its sentence, through a pipe and on a terminal', function () {
  this.timeout(60_000);
  const args = ['reindex', '--source', SAMPLE_PATH, '--alias', 'idx-exit-unreached'];
  const env = { ES_URL: 'http://127.0.0.1:9' };
  const sentence =
    'ppa-indexer reindex failed (exit 3): Elasticsearch at http://127.0.0.1:9 cannot be reached (connect ECONNREFUSED 127.0.0.1:9); ' +
    'the live alias "idx-exit-unreached" was not changed. Next: check ES_URL and that Elasticsearch is running, then run again.';

  it('through a pipe: JSON log lines (the failure one of them), then the sentence', async () => {
    const result = await runCli(args, env);
    expect(result.code).to.equal(3);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).to.equal(sentence);
    const entries = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.at(-1)).to.include({ level: 50, exitCode: 3, type: 'ElasticsearchError' });
    expect(result.stderr).to.not.include('"stack"');
  });

  it('with --log-format text through a pipe, and at LOG_LEVEL=debug with the stack, still the sentence last', async () => {
    const [text, debug] = await Promise.all([
      runCli([...args, '--log-format', 'text'], env),
      runCli(args, { ...env, LOG_LEVEL: 'debug' }),
    ]);
    expect(text.stderr.trimEnd()).to.equal(sentence);
    expect(debug.stderr).to.match(/"stack":"Error: Elasticsearch at [^"]*\\n {4}at /);
    expect(lastLine(debug.stderr)).to.equal(sentence);
  });

  it('on a terminal (script(1) gives it one): text, no JSON, the sentence last', function () {
    if (spawnSync('script', ['--version']).error) this.skip(); // util-linux's script is not installed
    const command = [process.execPath, BIN_PATH, ...args].map((arg) => `'${arg}'`).join(' ');
    const tty = spawnSync('script', ['-qec', command, '/dev/null'], {
      encoding: 'utf8',
      env: { ...process.env, ...env, LOG_LEVEL: 'info' },
      timeout: 30_000,
    });
    expect(tty.status, tty.stdout).to.equal(3); // script passes the exit code on (-e)
    expect(lastLine(tty.stdout)).to.equal(sentence);
    expect(tty.stdout).to.not.include('{"level"');
  });
});
