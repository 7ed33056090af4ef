// ppa-indexer rollback: the alias pointed back at the index built before the live one (indexer/reindex/rollback.ts).
import type { Command } from 'commander';
import { rollback } from '../reindex/rollback.js';
import { aliasFrom, changeLogOptions, withClient, type CliRun } from './cliRun.js';
import { AFTER_OPTIONS_HELP } from './help.js';

export function addRollbackCommand(program: Command, run: CliRun): void {
  program
    .command('rollback')
    .description('point the alias back at the index built before the live one')
    .option('--alias <name>', 'alias (default: ES_INDEX or "ppas")')
    .addHelpText('after', AFTER_OPTIONS_HELP)
    .action(async (options: { alias?: string }) => {
      const alias = aliasFrom(options.alias, run);
      const settings = changeLogOptions(run.logger);
      const result = await withClient(run, (client) => rollback(client, alias, settings));
      process.stdout.write(`${JSON.stringify({ rollback: result })}\n`);
      process.stderr.write(`alias ${result.alias}: ${result.from} → ${result.to}\n`);
    });
}
