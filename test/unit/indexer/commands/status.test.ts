// commands/status: `ppa-indexer status` against the fake Elasticsearch served over HTTP (ES_URL): the alias's state
// as text, or as JSON with --json, on stdout; the alias told to the closing sentence.
import { expect } from 'chai';
import { Command } from 'commander';
import { addStatusCommand } from '../../../../indexer/commands/status.js';
import type { AliasStatus } from '../../../../indexer/reindex/status.js';
import { captured, cliRun, withEnv } from '../../../support/cliRuns.js';
import { fakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';

const [T1, T2] = [1, 2].map((minute) => generationName('eu', minute)) as [string, string];

describe('indexer/commands/status', () => {
  async function status(...args: string[]) {
    const es = fakeElasticsearch();
    addGeneration(es, T1, ['a']);
    addGeneration(es, T2, ['a', 'b'], { live: true });
    const http = await es.listen();
    const run = cliRun();
    const program = new Command().exitOverride();
    addStatusCommand(program, run);
    try {
      const output = await withEnv({ ES_URL: http.url }, () =>
        captured(() => program.parseAsync(['status', '--alias', 'eu', ...args], { from: 'user' })),
      );
      return { ...output, run };
    } finally {
      await http.close();
    }
  }

  it('prints the alias’s state as text', async () => {
    const { stdout, error, run } = await status();
    expect(error).to.equal(undefined);
    const lines = stdout.split('\n');
    expect(lines[0]).to.match(
      new RegExp(`^alias eu → ${T2}: 2 documents, built 2026-01-01T00:02:00.000Z \\(`),
    );
    expect(lines.slice(1, 4).map((line) => line.replace(/ {2}built .*/, ''))).to.deep.equal([
      'kept indices (2):',
      `  * ${T2}  2 docs`,
      `    ${T1}  1 docs`,
    ]);
    expect(lines.at(-2)).to.equal('lock: free');
    expect(run.context.alias).to.equal('eu');
  });

  it('prints it as one JSON line with --json', async () => {
    const { stdout } = await status('--json');
    expect(stdout.endsWith('\n')).to.equal(true);
    const parsed = JSON.parse(stdout) as AliasStatus;
    expect(parsed).to.deep.include({ alias: 'eu', index: T2, docs: 2, lock: null, locks: [] });
    expect(parsed.kept.map((kept) => [kept.index, kept.live])).to.deep.equal([
      [T2, true],
      [T1, false],
    ]);
  });
});
