// `npm run generate -- --count N --seed S [--out file]`: fictional PPA records as NDJSON (stdout or a file).
//
// The shipped sample was made with:
//   npm run generate -- --count 500 --seed 20261122 --out data/sample-ppas.ndjson
import { Command, InvalidArgumentError } from 'commander';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { generateRecords } from './generateRecords.js';
import { writeNdjson } from './writeNdjson.js';

function nonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer');
  return Number(value);
}

const program = new Command()
  .name('generate')
  .description('Write deterministic fictional PPA records (record.md) as NDJSON')
  .option('--count <n>', 'number of records', nonNegativeInteger, 500)
  .option('--seed <n>', 'PRNG seed: the same seed gives the same records', nonNegativeInteger, 20261122)
  .option('--out <file>', 'output file (default: stdout)')
  .action(async (options: { count: number; seed: number; out?: string }) => {
    const output = options.out ? createWriteStream(options.out) : process.stdout;
    const written = await writeNdjson(generateRecords({ seed: options.seed, count: options.count }), output);
    if (options.out) {
      output.end();
      await finished(output);
      process.stderr.write(`wrote ${written} records to ${options.out}\n`);
    }
  });

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`generate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 3;
});
