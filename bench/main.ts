// `npm run bench -- <suite> [options]`: the one entry point of the benchmarks (bench/README.md). The suites are
// the modules bench/suites.ts lists, each declared with defineSuite (bench/suite.ts): `npm run bench -- --help` lists them from
// their declarations, `npm run bench -- <suite> --help` gives a suite's options, and
// `npm run bench -- --quick-all` runs every suite's quick form (what the smoke test of `npm test` runs, test/bench/).
import { runQuickForms } from './quickAll.js';
import { runSuite } from './suite.js';
import { DEFAULT_SUITE, SUITES } from './suites.js';

function help(): string {
  const width = Math.max(...SUITES.map((suite) => suite.name.length));
  return [
    'Usage: npm run bench -- [suite] [options]   (the suite defaults to mix)',
    '       npm run bench -- <suite> --help       (its options)',
    '       npm run bench -- <suite> --quick      (its quick form: a smoke run, nothing written)',
    '       npm run bench -- --quick-all [--jobs N] [suite…] (every quick form, or the ones named; N at a time)',
    '',
    'Suites:',
    ...SUITES.map((suite) => `  ${suite.name.padEnd(width)}  ${suite.summary}`),
    '',
  ].join('\n');
}

const args = process.argv.slice(2);
const [first, ...rest] = args;
if (first === '--help' || first === '-h') {
  process.stdout.write(help());
} else if (first === '--quick-all') {
  process.exitCode = await runQuickForms(SUITES, rest);
} else {
  const named = first !== undefined && !first.startsWith('-');
  const suite = named ? SUITES.find((candidate) => candidate.name === first) : DEFAULT_SUITE;
  if (!suite) {
    process.stderr.write(`bench: unknown suite "${first}": one of ${SUITES.map((s) => s.name).join(', ')}\n`);
    process.exit(2);
  }
  await runSuite(suite, named ? rest : args);
}
