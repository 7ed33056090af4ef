// ppa-indexer status: the alias, its index, document counts, age, kept indices and the locks.
import type { Command } from 'commander';
import { aliasStatus, describeStatus } from '../reindex/status.js';
import { aliasFrom, withClient, type CliRun } from './cliRun.js';
import { AFTER_OPTIONS_HELP } from './help.js';

export function addStatusCommand(program: Command, run: CliRun): void {
  program
    .command('status')
    .description('show the alias, its index, document counts, age, kept indices and the lock')
    .option('--alias <name>', 'alias (default: ES_INDEX or "ppas")')
    .option('--json', 'print JSON instead of text', false)
    .addHelpText('after', AFTER_OPTIONS_HELP)
    .action(async (options: { alias?: string; json: boolean }) => {
      const alias = aliasFrom(options.alias, run);
      const status = await withClient(run, (client) => aliasStatus(client, alias));
      process.stdout.write(`${options.json ? JSON.stringify(status) : describeStatus(status)}\n`);
    });
}
