// commands/options: --max-removed as reindex and sync both declare it: its flag and help naming the run, its
// default (5%, shown as written), a share or a count parsed, and anything else refused by commander as a usage
// error naming the option.
import { expect } from 'chai';
import { Command, CommanderError } from 'commander';
import { maxRemovedOption } from '../../../../indexer/commands/options.js';

function parsed(...args: string[]): unknown {
  const program = new Command()
    .addOption(maxRemovedOption('a sync run'))
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
  program.parse(args, { from: 'user' });
  return program.opts().maxRemoved;
}

describe('indexer/commands/options', () => {
  it('declares --max-removed with help naming the run, and 5% by default', () => {
    const option = maxRemovedOption('a reindex');
    expect(option.flags).to.equal('--max-removed <share|count>');
    expect(option.description).to.include('the most live PPAs a reindex may remove');
    expect(option.description).to.include('(exit 5)');
    expect(option.defaultValue).to.deep.equal({ share: 0.05 });
    expect(option.defaultValueDescription).to.equal('5%');
    expect(parsed()).to.deep.equal({ share: 0.05 });
  });

  it('reads a share or a count, and refuses anything else as a usage error naming the option', () => {
    expect(parsed('--max-removed', '12.5%')).to.deep.equal({ share: 0.125 });
    expect(parsed('--max-removed', '250')).to.deep.equal({ count: 250 });
    let error: unknown;
    try {
      parsed('--max-removed', 'all');
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(CommanderError);
    expect((error as CommanderError).code).to.equal('commander.invalidArgument');
    expect((error as CommanderError).message).to.include(
      "option '--max-removed <share|count>' argument 'all' is invalid",
    );
  });
});
