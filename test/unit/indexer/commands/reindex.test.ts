// commands/reindex: `ppa-indexer reindex` against the fake Elasticsearch served over HTTP (ES_URL) and files of the
// test's own. Checked: a reindex's summary as JSON on stdout and a sentence on stderr, --keep and --batch-size
// reaching the run; --if-missing doing nothing when the alias exists; --plan printing the plan and building nothing;
// --dry-run needing no Elasticsearch; --plan with --dry-run refused.
import { expect } from 'chai';
import { Command } from 'commander';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDataIndexOf } from '../../../../indexContract/indexName.js';
import { addReindexCommand } from '../../../../indexer/commands/reindex.js';
import { UsageError } from '../../../../indexer/errors.js';
import { captured, cliRun, withEnv, withoutNewSignalListeners } from '../../../support/cliRuns.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';
import { ndjsonText, ppaRecord } from '../../../support/ppaRecords.js';

const LIVE = generationName('ppas', 1);

describe('indexer/commands/reindex', () => {
  let dir: string;
  let source: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'indexer-reindex-command-'));
    source = join(dir, 'records.ndjson');
    await writeFile(
      source,
      ndjsonText([ppaRecord('a'), ppaRecord('b'), ppaRecord('c', { published: false })]),
    );
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  async function reindex(es: FakeElasticsearch | null, ...args: string[]) {
    const http = es ? await es.listen() : null;
    const program = new Command().exitOverride();
    addReindexCommand(program, cliRun('error'));
    // No Elasticsearch at all: a port nothing listens on.
    const url = http?.url ?? (await closedUrl());
    try {
      return await withEnv({ ES_URL: url }, () =>
        withoutNewSignalListeners(() =>
          captured(() => program.parseAsync(['reindex', '--alias', 'ppas', ...args], { from: 'user' })),
        ),
      );
    } finally {
      await http?.close();
    }
  }

  it('reindexes, printing the summary as JSON and a sentence for a person', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, LIVE, ['a', 'b'], { live: true });
    const { stdout, stderr, error } = await reindex(
      es,
      '--source',
      source,
      '--keep',
      '1',
      '--batch-size',
      '1',
    );
    expect(error).to.equal(undefined);
    const { summary } = JSON.parse(stdout) as { summary: Record<string, unknown> };
    expect(summary).to.deep.include({
      alias: 'ppas',
      previousIndex: LIVE,
      indexed: 2,
      read: 3,
      unpublished: 1,
    });
    expect(summary).to.deep.include({ deletedIndices: [LIVE] });
    expect(summary).to.not.have.property('invalidRecords');
    expect(isDataIndexOf('ppas', String(summary.index))).to.equal(true);
    expect(es.aliasTarget('ppas')).to.equal(summary.index);
    expect(es.calls.filter((call) => call.path.endsWith('/_bulk') && call.path !== '/_bulk')).to.have.length(
      2,
    );
    expect(stderr).to.include(`indexed 2 of 3 records read (0 invalid, 1 unpublished) in `);
    expect(stderr).to.include(`; alias ppas → ${String(summary.index)}; deleted ${LIVE}\n`);
  });

  it('does nothing with --if-missing when the alias exists', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, LIVE, ['a'], { live: true });
    const { stdout, stderr } = await reindex(es, '--source', source, '--if-missing');
    expect(stdout).to.equal('');
    expect(stderr).to.equal(`alias ppas → ${LIVE} exists: nothing to do (--if-missing)\n`);
    expect([...es.indices.keys()]).to.deep.equal([LIVE]);
  });

  it('prints the plan with --plan, as text and JSON, and builds nothing', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, LIVE, ['a', 'gone'], { live: true });
    const { stdout, stderr } = await reindex(es, '--source', source, '--plan', '--max-removed', '1');
    expect(JSON.parse(stdout)).to.deep.include({
      plan: {
        alias: 'ppas',
        live: LIVE,
        added: 1,
        updated: 0,
        removed: 1,
        unchanged: 1,
        examples: { added: ['b'], updated: [], removed: ['gone'] },
        max_removed: '1',
        would_stop: false,
        invalid: 0,
      },
    });
    expect(stderr).to.include('plan: a reindex of alias "ppas" from this source');
    expect([...es.indices.keys()]).to.deep.equal([LIVE]);
  });

  it('needs no Elasticsearch for --dry-run, and refuses --plan with --dry-run', async () => {
    const { stdout, stderr, error } = await reindex(null, '--source', source, '--dry-run');
    expect(error).to.equal(undefined);
    const { summary } = JSON.parse(stdout) as { summary: Record<string, unknown> };
    expect(summary).to.include({ dryRun: true, index: null, indexed: 2 });
    // Progress as JSON lines (stderr is no terminal here), then the sentence.
    const lines = stderr.trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).to.have.nested.property('progress.phase', 'validate');
    expect(lines.at(-1)).to.match(/^dry run: would index 2 of 3 records read/);
    const both = await reindex(null, '--source', source, '--dry-run', '--plan');
    expect(both.error).to.be.instanceOf(UsageError);
  });
});

async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
