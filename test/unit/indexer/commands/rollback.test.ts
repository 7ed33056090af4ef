// commands/rollback: `ppa-indexer rollback` against the fake Elasticsearch served over HTTP (ES_URL): the alias
// moved back, the result as JSON on stdout and one line for a person on stderr; nothing to roll back to fails.
import { expect } from 'chai';
import { Command } from 'commander';
import { addRollbackCommand } from '../../../../indexer/commands/rollback.js';
import { NothingToRollBackError } from '../../../../indexer/errors.js';
import { captured, cliRun, withEnv } from '../../../support/cliRuns.js';
import { fakeElasticsearch, type FakeElasticsearch } from '../../../support/fakeElasticsearch.js';
import { addGeneration, generationName } from '../../../support/generations.js';

const [T1, T2] = [1, 2].map((minute) => generationName('ppas', minute)) as [string, string];

async function rollback(es: FakeElasticsearch) {
  const http = await es.listen();
  const program = new Command().exitOverride();
  addRollbackCommand(program, cliRun('error'));
  try {
    return await withEnv({ ES_URL: http.url, CHANGES_RETENTION_DAYS: undefined }, () =>
      captured(() => program.parseAsync(['rollback', '--alias', 'ppas'], { from: 'user' })),
    );
  } finally {
    await http.close();
  }
}

describe('indexer/commands/rollback', () => {
  it('moves the alias back, printing the result as JSON and a line for a person', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, T1, ['a']);
    addGeneration(es, T2, ['a', 'b'], { live: true });
    const { stdout, stderr, error } = await rollback(es);
    expect(error).to.equal(undefined);
    expect(JSON.parse(stdout)).to.deep.equal({
      rollback: {
        alias: 'ppas',
        from: T2,
        to: T1,
        changes: { added: 0, updated: 0, removed: 1, unchanged: 1 },
      },
    });
    expect(stderr).to.equal(`alias ppas: ${T2} → ${T1}\n`);
    expect(es.aliasTarget('ppas')).to.equal(T1);
  });

  it('fails, printing nothing, when there is nothing to roll back to', async () => {
    const es = fakeElasticsearch();
    addGeneration(es, T2, ['a'], { live: true });
    const { stdout, error } = await rollback(es);
    expect(error).to.be.instanceOf(NothingToRollBackError);
    expect(stdout).to.equal('');
    expect(es.aliasTarget('ppas')).to.equal(T2);
  });
});
