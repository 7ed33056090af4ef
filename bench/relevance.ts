// `npm run bench -- relevance` (also `npm run relevance`): builds the relevance corpus (generated records, real reindex under a unique alias), runs
// every query class through the API's request path, prints the figures and writes bench/results/relevance-<date>.md.
//
//   npm run relevance -- [--count 12000] [--seed 20261122] [--query-seed 9] [--per-class 300]
//                        [--alias name --reuse] [--keep] [--variant baseline] [--paired step] [--no-write]
//
// --keep leaves the index in place and --alias/--reuse runs against it again (for tuning the query only).
// --paired <step>, after the suite, sends every list query with that tuning step and with the API's query, back to
// back, and prints (and reports) Elasticsearch's took of each: the cost of the steps since, paired query by query.
// ES_URL picks the cluster (default http://127.0.0.1:9200).
import { Client } from '@elastic/elasticsearch';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import {
  buildCorpus,
  DEFAULT_CORPUS,
  dropCorpus,
  relevanceAlias,
  relevanceRecords,
} from '../tools/relevance/corpus.js';
import { pairedCost, pairedCostLine } from '../tools/relevance/pairedCost.js';
import { generateQueries, isLive } from '../tools/relevance/queries.js';
import { createSearchGateway } from '../src/gateway/gateway.js';
import { consoleTable, markdownReport, missExamples, targetLines } from '../tools/relevance/report.js';
import { DEFAULT_SUITE, runSuite } from '../tools/relevance/measure.js';
import { VARIANTS } from '../tools/relevance/variants.js';
import { defineSuite, type SharedOptions } from './suite.js';
import {
  OPERATOR_QUERIES_PER_CLASS,
  operatorTable,
  runOperatorSuite,
} from '../tools/relevance/operatorSuite.js';

interface Options extends SharedOptions {
  querySeed: number;
  perClass: number;
  alias?: string;
  reuse?: boolean;
  keep?: boolean;
  variant: string;
  paired?: string;
}

const integer = (value: string): number => {
  if (!/^\d+$/.test(value)) throw new Error(`expected a non-negative integer, got ${value}`);
  return Number(value);
};

async function main(options: Options): Promise<number> {
  const client = new Client({ node: process.env.ES_URL ?? 'http://127.0.0.1:9200', requestTimeout: 120_000 });
  const alias = options.alias ?? relevanceAlias();
  const corpusOptions = { seed: options.seed, count: options.count };
  try {
    let indexed: number;
    let indexSeconds = 0;
    let records;
    if (options.reuse) {
      records = relevanceRecords(corpusOptions);
      const count = await client.count({ index: alias });
      indexed = count.count;
      console.log(`reusing ${alias} (${indexed} documents)`);
    } else {
      console.log(`indexing ${options.count} generated records (seed ${options.seed}) under ${alias}…`);
      const corpus = await buildCorpus(client, alias, corpusOptions);
      ({ records, indexed, indexSeconds } = corpus);
      console.log(`indexed ${indexed} documents in ${indexSeconds.toFixed(1)} s`);
    }
    const live = records.filter(isLive).length;

    const textQuery = VARIANTS[options.variant];
    if (!textQuery)
      throw new Error(`unknown --variant ${options.variant} (${Object.keys(VARIANTS).join(', ')})`);
    if (options.variant !== 'current') console.log(`text query: tuning step "${options.variant}"`);
    const run = await runSuite(client, alias, records, {
      seed: options.querySeed,
      perClass: options.perClass,
      ...(options.variant === 'current' ? {} : { textQuery }),
    });
    console.log(`\n${run.results.length} queries in ${run.querySeconds.toFixed(1)} s\n`);
    console.log(consoleTable(run.figures));
    console.log(`\n${targetLines(run.checks).join('\n')}`);
    const misses = missExamples(run.results, 3);
    if (misses.length > 0) console.log(`\nmisses:\n${misses.join('\n')}`);
    const operators = await runOperatorSuite(
      createSearchGateway({ client, alias, requestTimeoutMs: 30_000 }),
      records,
      { seed: options.querySeed, perClass: Math.min(options.perClass, OPERATOR_QUERIES_PER_CLASS) },
    );
    console.log(`\n${operatorTable(operators)}`);
    for (const row of operators) for (const miss of row.misses) console.log(`  miss: ${miss}`);
    const operatorsExact = operators.every((row) => row.precision === 1 && row.recall === 1);

    let cost: string | undefined;
    if (options.paired !== undefined) {
      const before = VARIANTS[options.paired];
      if (!before) throw new Error(`unknown --paired ${options.paired}`);
      const queries = generateQueries(records, { seed: options.querySeed, perClass: options.perClass });
      const search = createSearchGateway({ client, alias, requestTimeoutMs: 30_000 });
      cost = pairedCostLine(options.paired, await pairedCost(search, queries, before));
      console.log(`\n${cost}`);
    }

    if (options.write && options.variant === 'current') {
      const date = new Date().toISOString().slice(0, 10);
      const method = await readFile(new URL('../tools/relevance/method.md', import.meta.url), 'utf8');
      const report = markdownReport({
        date,
        figures: run.figures,
        checks: run.checks,
        results: run.results,
        corpus: { ...corpusOptions, indexed, live, indexSeconds },
        suite: { seed: options.querySeed, perClass: options.perClass, querySeconds: run.querySeconds },
        method,
        ...(cost ? { cost } : {}),
        operators,
      });
      const directory = new URL('./results/', import.meta.url);
      await mkdir(directory, { recursive: true });
      const file = new URL(`relevance-${date}.md`, directory);
      await writeFile(file, report);
      console.log(`\nwrote ${file.pathname}`);
    }
    return run.checks.every((check) => check.met) && operatorsExact ? 0 : 1;
  } finally {
    if (!options.keep) await dropCorpus(client, alias);
    else console.log(`kept ${alias}`);
    await client.close();
  }
}

export default defineSuite<Options>({
  name: 'relevance',
  module: import.meta.url,
  summary: 'search quality per query class (also npm run relevance)',
  count: DEFAULT_CORPUS.count,
  seed: DEFAULT_CORPUS.seed,
  writes: true,
  options: (command) =>
    command
      .option('--query-seed <n>', 'query sampling seed', integer, DEFAULT_SUITE.seed)
      .option('--per-class <n>', 'queries per class', integer, DEFAULT_SUITE.perClass)
      .option('--alias <name>', 'alias to build (or, with --reuse, to run against)')
      .option('--reuse', 'run against an alias built earlier with --keep (same --count and --seed)')
      .option('--keep', 'keep the index after the run')
      .option('--variant <name>', "text query: current (the API's) or an earlier tuning step", 'current')
      .option(
        '--paired <step>',
        "Elasticsearch's took of each list query with that step and with the API's query",
      ),
  quick: { count: 300, args: ['--per-class', '3'] },
  run: async (options) => {
    try {
      const code = await main(options);
      // A quick form's handful of queries proves the suite runs, not that the targets are met.
      process.exitCode = options.quick ? 0 : code;
    } catch (error) {
      console.error(`relevance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 3;
    }
  },
});
