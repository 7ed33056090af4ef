// commands/validate: `ppa-indexer validate`, every record of a source checked, nothing written and no Elasticsearch
// needed. Checked with files of the test's own: the figures as JSON on stdout and a sentence on stderr; invalid
// records fail the command with the figures still printed; DATABASE_URL as the default source; a missing file.
import { expect } from 'chai';
import { Command } from 'commander';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addValidateCommand } from '../../../../indexer/commands/validate.js';
import { UsageError } from '../../../../indexer/errors.js';
import { SourceError } from '../../../../indexer/sources/sourceErrors.js';
import { InvalidSourceError } from '../../../../indexer/sources/validateSource.js';
import { captured, cliRun, withEnv, withoutNewSignalListeners } from '../../../support/cliRuns.js';
import { ndjsonText, ppaRecord } from '../../../support/ppaRecords.js';

describe('indexer/commands/validate', () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(join(tmpdir(), 'indexer-validate-command-'))));
  after(async () => rm(dir, { recursive: true, force: true }));

  async function validate(...args: string[]) {
    const program = new Command().exitOverride();
    addValidateCommand(program, cliRun());
    return withoutNewSignalListeners(() =>
      captured(() => program.parseAsync(['validate', ...args], { from: 'user' })),
    );
  }

  it('prints the figures as JSON and a sentence for a person when every record is valid', async () => {
    const path = join(dir, 'valid.ndjson');
    await writeFile(path, ndjsonText([ppaRecord('a'), ppaRecord('b', { published: false })]));
    const { stdout, stderr, error } = await validate('--source', path);
    expect(error).to.equal(undefined);
    expect(JSON.parse(stdout)).to.deep.equal({
      validation: {
        format: 'ndjson',
        read: 2,
        valid: 2,
        invalid: 0,
        published: 1,
        unpublished: 1,
        inactive: 0,
      },
    });
    expect(stderr).to.equal('2 records, all valid (1 published, 1 unpublished)\n');
  });

  it('fails on invalid records, still printing the figures, from DATABASE_URL’s default too', async () => {
    const path = join(dir, 'invalid.json');
    await writeFile(path, JSON.stringify([ppaRecord('a'), ppaRecord('b', { capacity_mw: -1 })]));
    const { stdout, stderr, error } = await withEnv({ DATABASE_URL: path }, () => validate());
    expect(error).to.be.instanceOf(InvalidSourceError);
    expect((error as InvalidSourceError).report.invalidRecords.map((record) => record.line)).to.deep.equal([
      1,
    ]);
    expect(JSON.parse(stdout)).to.deep.include({
      validation: {
        format: 'json-array',
        read: 2,
        valid: 1,
        invalid: 1,
        published: 1,
        unpublished: 0,
        inactive: 0,
      },
    });
    expect(stderr).to.equal('');
  });

  it('refuses a missing source, and no source at all', async () => {
    expect((await validate('--source', join(dir, 'nope.ndjson'))).error).to.be.instanceOf(SourceError);
    const none = await withEnv({ DATABASE_URL: undefined }, () => validate());
    expect(none.error).to.be.instanceOf(UsageError);
  });
});
