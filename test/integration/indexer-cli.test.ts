// Acceptance tests of the `ppa-indexer` CLI as a child process: exit codes, messages, signals.
import { expect } from 'chai';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aliasTarget, dataIndices } from '../../indexer/elasticsearch/aliases.js';
import { generateRecords } from '../../tools/generate/generateRecords.js';
import { writeNdjson } from '../../tools/generate/writeNdjson.js';
import { lockLocation, AliasLock } from '../../indexer/elasticsearch/lock.js';
import { indexSample, SAMPLE_PATH } from '../support/sampleIndex.js';
import { runCli, startCli, summaryOf } from '../support/indexerCliProcess.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

const sampleLines = readFileSync(SAMPLE_PATH, 'utf8').trimEnd().split('\n');
const publishedCount = sampleLines.filter(
  (line) => (JSON.parse(line) as { published: boolean }).published,
).length;

describe('indexer: ppa-indexer CLI', function () {
  this.timeout(120_000);
  const client = testEsClient();
  let alias: string;
  let workDir: string;

  beforeEach(async () => {
    alias = uniqueName('idx-cli');
    workDir = await mkdtemp(join(tmpdir(), 'indexer-cli-test-'));
  });
  afterEach(async () => {
    await deleteIndices(client, alias);
    await rm(workDir, { recursive: true, force: true });
  });
  after(() => client.close());

  it('reindex prints a summary (read, invalid, unpublished, indexed, seconds, docs/s) and exits 0', async () => {
    const result = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias]);
    expect(result.code, result.stderr).to.equal(0);
    const summary = summaryOf(result);
    expect(summary).to.include({ alias, read: sampleLines.length, invalid: 0, indexed: publishedCount });
    expect(summary.unpublished).to.equal(sampleLines.length - publishedCount);
    expect(summary.seconds).to.be.a('number');
    expect(summary.docsPerSecond).to.be.greaterThan(0);
    expect(result.stderr).to.match(/indexed \d+ of 500 records read .* docs\/s/);
    expect(await aliasTarget(client, alias)).to.equal(summary.index);
  });

  it('reads the source from stdin with --source -', async () => {
    const result = await runCli(
      ['reindex', '--source', '-', '--alias', alias],
      {},
      readFileSync(SAMPLE_PATH),
    );
    expect(result.code, result.stderr).to.equal(0);
    expect(summaryOf(result).indexed).to.equal(publishedCount);
    expect((await client.count({ index: alias })).count).to.equal(publishedCount);
  });

  it('a source with an invalid line exits 1, names line, slug and field, and leaves alias and docs unchanged', async () => {
    const first = await indexSample(client, alias);
    const lines = [...sampleLines];
    const broken = JSON.parse(lines[41]!) as Record<string, unknown>;
    broken.financial_close_year = 1850;
    lines[41] = JSON.stringify(broken);
    lines[99] = lines[99]!.slice(0, 40);
    const source = join(workDir, 'invalid.ndjson');
    await writeFile(source, `${lines.join('\n')}\n`);

    const result = await runCli(['reindex', '--source', source, '--alias', alias]);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.include(
      `line 42 (slug "${broken.slug as string}"): financial_close_year must be >= 1900`,
    );
    const cutSlug = (JSON.parse(sampleLines[99]!) as { slug: string }).slug;
    expect(result.stderr).to.include(
      `line 100 (slug "${cutSlug}"): (line) is not valid JSON after the field slug`,
    );
    expect(result.stderr).to.include('2 invalid record(s) of 500; nothing was indexed');
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect((await client.count({ index: alias })).count).to.equal(publishedCount);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([first.index]);

    const validation = await runCli(['validate', '--source', source]);
    expect(validation.code).to.equal(1);
    expect(validation.stderr).to.include('line 42');
  });

  it('a 2 MiB line, invalid UTF-8 and escape codes in a slug: reported by field (quoted, terminal-safe) and skippable', async () => {
    const lines = sampleLines.map((line) => Buffer.from(line));
    lines[2] = Buffer.from(JSON.stringify({ filler: 'x'.repeat(2 * 1024 * 1024) }));
    const nameAt = lines[4]!.indexOf('"project_name":"') + '"project_name":"'.length + 3;
    lines[4] = Buffer.concat([
      lines[4]!.subarray(0, nameAt),
      Buffer.from([0xff, 0xfe]),
      lines[4]!.subarray(nameAt),
    ]);
    const slug5 = (JSON.parse(sampleLines[4]!) as { slug: string }).slug;
    const hostile = JSON.parse(sampleLines[6]!) as Record<string, unknown>;
    hostile.slug = '\u001b[2J\u001b]0;owned\u0007evil';
    lines[6] = Buffer.from(JSON.stringify(hostile));
    const source = join(workDir, 'hostile.ndjson');
    await writeFile(source, Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')])));

    const validation = await runCli(['validate', '--source', source]);
    expect(validation.code).to.equal(1);
    expect(validation.stderr).to.include(
      `line 3: filler is a string of ${2 * 1024 * 1024 + 2} bytes, in a line of ${lines[2]!.length} bytes; ` +
        'a line may hold at most 1048576 bytes (1 MiB)',
    );
    expect(validation.stderr).to.include(
      `line 5 (slug "${slug5}"): project_name is not valid UTF-8 (byte 0xff at byte ${nameAt} of the line)`,
    );
    expect(validation.stderr).to.include('line 7 (slug "\\u{1b}[2J\\u{1b}]0;owned\\u{7}evil")');
    const rawControls = [...validation.stderr].filter((c) => c.charCodeAt(0) < 0x20 && c !== '\n');
    expect(rawControls, 'no raw control character reaches the terminal').to.deep.equal([]);

    const skipped = await runCli(['reindex', '--source', source, '--alias', alias, '--skip-invalid']);
    expect(skipped.code).to.equal(0);
    const skippedPublished = [2, 4, 6].filter(
      (i) => (JSON.parse(sampleLines[i]!) as { published: boolean }).published,
    );
    expect(summaryOf(skipped).indexed).to.equal(publishedCount - skippedPublished.length);
  });

  it('SIGTERM mid-load exits 143, deletes the half-built index and leaves the alias on the old one', async () => {
    const first = await indexSample(client, alias);
    const source = join(workDir, 'large.ndjson');
    const output = createWriteStream(source);
    await writeNdjson(generateRecords({ seed: 99, count: 20_000 }), output);
    await new Promise((resolve) => output.end(resolve));

    const running = startCli(['reindex', '--source', source, '--alias', alias, '--batch-size', '100']);
    await running.waitForStderr('"msg":"loading new index"');
    await running.waitForStderr('"phase":"load"'); // at least one batch is in the new index
    running.child.kill('SIGTERM');
    const result = await running.result;

    expect(result.code, result.stderr).to.equal(143);
    expect(result.stderr).to.include('deleted the half-built index');
    expect(result.stderr.trimEnd().split('\n').at(-1)).to.equal(
      `ppa-indexer reindex stopped (exit 143): interrupted by SIGTERM; the half-built index was deleted and ` +
        `the live alias "${alias}" was not changed. Next: run it again when ready.`,
    );
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    expect((await client.count({ index: alias })).count).to.equal(publishedCount);
    expect((await dataIndices(client, alias)).map((index) => index.index)).to.deep.equal([first.index]);
    const lock = await client.exists(lockLocation(alias));
    expect(lock, 'the lock is released').to.equal(false);
  });

  it('a second reindex while one holds the lock exits 4 with a clear message', async () => {
    const lock = await AliasLock.acquire(client, alias, { owner: 'the first run' });
    try {
      const result = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias]);
      expect(result.code).to.equal(4);
      expect(result.stderr).to.match(
        /another reindex of alias "idx-cli-[^"]+" is running \(lock held by the first run/,
      );
      expect(await aliasTarget(client, alias)).to.equal(null);
    } finally {
      await lock.release();
    }
  });

  it('status shows alias, index and counts; rollback moves back and then has nowhere to go (exit 3)', async () => {
    const first = await indexSample(client, alias);
    const second = await indexSample(client, alias);
    const status = await runCli(['status', '--alias', alias]);
    expect(status.code).to.equal(0);
    expect(status.stdout).to.include(`alias ${alias} → ${second.index}: ${publishedCount} documents`);
    expect(status.stdout).to.include(`kept indices (2)`);
    const json = JSON.parse((await runCli(['status', '--alias', alias, '--json'])).stdout) as {
      index: string;
      docs: number;
    };
    expect(json).to.include({ index: second.index, docs: publishedCount });

    const back = await runCli(['rollback', '--alias', alias]);
    expect(back.code).to.equal(0);
    expect(await aliasTarget(client, alias)).to.equal(first.index);
    const again = await runCli(['rollback', '--alias', alias]);
    expect(again.code).to.equal(3);
    expect(again.stderr).to.include('no earlier index is kept');
  });

  it('usage errors exit 2 and name the option or variable', async () => {
    const badKeep = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias, '--keep', '0']);
    expect(badKeep.code).to.equal(2);
    expect(badKeep.stderr).to.include("option '--keep <n>' argument '0' is invalid");
    const badTimeout = await runCli(['status', '--alias', alias], { ES_REQUEST_TIMEOUT_MS: 'soon' });
    expect(badTimeout.code).to.equal(2);
    expect(badTimeout.stderr).to.include('ES_REQUEST_TIMEOUT_MS must be an integer from 1 to 300000');
    const missing = await runCli(['validate', '--source', join(workDir, 'nope.ndjson')]);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.include('nope.ndjson');
    const help = await runCli(['reindex', '--help']);
    expect(help.code).to.equal(0);
    expect(help.stdout).to.include('Exit codes:');
  });

  it('a reader that stops early (| head) ends the output quietly: exit 0, no EPIPE trace', async () => {
    const running = startCli(['reindex', '--help']);
    running.child.stdout!.destroy(); // the reader is gone before the help is written
    const result = await running.result;
    expect(result.code).to.equal(0);
    expect(result.stderr).to.not.include('EPIPE');
    expect(result.stderr).to.equal('');
  });

  it('an unreachable Elasticsearch exits 3 and writes nothing', async () => {
    const result = await runCli(['reindex', '--source', SAMPLE_PATH, '--alias', alias], {
      ES_URL: 'http://127.0.0.1:9',
      ES_REQUEST_TIMEOUT_MS: '2000',
    });
    expect(result.code).to.equal(3);
    expect(result.stderr).to.include(
      'Elasticsearch at http://127.0.0.1:9 cannot be reached (connect ECONNREFUSED',
    );
  });
});
