// ppa-indexer validate: every record of the source checked against the record schema, nothing written.
import type { Command } from 'commander';
import { InterruptedError } from '../errors.js';
import { openRecordSource } from '../sources/openSource.js';
import { DEFAULT_RELATION } from '../sources/postgresRelation.js';
import { InvalidSourceError } from '../sources/validateSource.js';
import { abortOnSignals, sourceFrom, type CliRun } from './cliRun.js';
import { AFTER_OPTIONS_HELP } from './help.js';

export function addValidateCommand(program: Command, run: CliRun): void {
  program
    .command('validate')
    .description('check every record of the source against the record schema (no Elasticsearch needed)')
    .option(
      '--source <file|url>',
      'NDJSON or JSON array file, - for stdin, or postgres://… (default: DATABASE_URL)',
    )
    .option('--relation <name>', `PostgreSQL relation (default ${DEFAULT_RELATION})`)
    .addHelpText('after', AFTER_OPTIONS_HELP)
    .action(async (options: { source?: string; relation?: string }) => {
      const controller = abortOnSignals(run);
      const source = await openRecordSource(sourceFrom(options.source), {
        ...(options.relation ? { relation: options.relation } : {}),
        signal: controller.signal,
      });
      try {
        const report = await source.validate({ signal: controller.signal }).catch((error: unknown) => {
          if (controller.signal.aborted) throw new InterruptedError(String(controller.signal.reason));
          throw error;
        });
        const { invalidRecords, invalidLines: _lines, peerRates: _peers, ...figures } = report;
        process.stdout.write(`${JSON.stringify({ validation: figures })}\n`);
        if (report.invalid > 0) throw new InvalidSourceError({ ...report, invalidRecords });
        process.stderr.write(
          `${report.read} records, all valid (${report.published} published, ${report.unpublished} unpublished)\n`,
        );
      } finally {
        await source.close();
      }
    });
}
