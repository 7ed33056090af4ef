// The relevance suite of issues 9, 16, 19, 32 and 69 (tools/relevance/) as a test: 12,000 generated records indexed with
// the real reindex, every query class run through the API's request path, and the floors of
// tools/relevance/targets.ts asserted class by class. `npm run relevance` runs the same suite and writes the report.
import { expect } from 'chai';
import { buildCorpus, DEFAULT_CORPUS, dropCorpus, relevanceAlias } from '../../tools/relevance/corpus.js';
import type { ClassFigures } from '../../tools/relevance/rankingMetrics.js';
import { consoleTable, didYouMeanTable, missExamples, offerExamples } from '../../tools/relevance/report.js';
import { runPastedNameCheck, type PastedNameFigures } from '../../tools/relevance/pastedNames.js';
import {
  OPERATOR_CLASSES,
  operatorTable,
  runOperatorSuite,
  type OperatorFigures,
} from '../../tools/relevance/operatorSuite.js';
import { DEFAULT_SUITE, runSuite, type SuiteRun } from '../../tools/relevance/measure.js';
import { createSearchGateway } from '../../src/gateway/gateway.js';
import { describeTarget, isUpperBound, TARGETS } from '../../tools/relevance/targets.js';
import { LAST_STEP_PARTS } from '../../tools/relevance/variants.js';
import { ALL_PARTS } from '../../src/queries/textQuery.js';
import { testEsClient } from '../support/services.js';

// Two hundred queries a class here, the report's (`npm run relevance`) three hundred: the first two hundred of the
// same seeded draw, so every floor is still judged on a few hundred queries, for two thirds of the suite's time.
const TEST_SUITE = { ...DEFAULT_SUITE, perClass: 200 } as const;

describe('relevance of q over 10k+ generated records (issue 9)', function () {
  // About a minute on an idle 2-core machine; the shared CI box can be several times slower.
  this.timeout(600_000);
  const client = testEsClient();
  const alias = relevanceAlias();
  let run: SuiteRun;
  let operators: OperatorFigures[];
  let pasted: PastedNameFigures;

  before(async () => {
    const corpus = await buildCorpus(client, alias, DEFAULT_CORPUS);
    expect(corpus.indexed).to.be.at.least(10_000);
    run = await runSuite(client, alias, corpus.records, TEST_SUITE);
    console.log(`${consoleTable(run.figures)}\n${missExamples(run.results, 2).join('\n')}`);
    // The operator classes of precise search (issue 59), on the same corpus: sets against an oracle.
    const search = createSearchGateway({ client, alias, requestTimeoutMs: 30_000 });
    operators = await runOperatorSuite(search, corpus.records, { seed: DEFAULT_SUITE.seed, perClass: 50 });
    console.log(operatorTable(operators));
    console.log(`${didYouMeanTable(run.figures)}\n${offerExamples(run.results, 2).join('\n')}`);
    // Every corpus name that holds what may read as an operator, pasted (issue 69).
    pasted = await runPastedNameCheck(search, corpus.records);
    console.log(
      `pasted names: ${pasted.names} (${pasted.readAsOperators} read as operators), ${pasted.queries} queries, ` +
        `${pasted.first} first, ${pasted.markedWhole} of ${pasted.operatorQueries} marked as one span`,
    );
  });

  after(async () => {
    await dropCorpus(client, alias);
    await client.close();
  });

  const figuresOf = (queryClass: string): ClassFigures => {
    const figures = run.figures.find((row) => row.queryClass === queryClass);
    if (!figures) throw new Error(`no figures for ${queryClass}`);
    return figures;
  };

  it("measures the API's own text query as the last tuning step", () => {
    expect(LAST_STEP_PARTS).to.deep.equal(ALL_PARTS);
  });

  it('asks a few hundred queries of every class', () => {
    for (const figures of run.figures) expect(figures.queries, figures.queryClass).to.be.at.least(200);
  });

  for (const operatorClass of OPERATOR_CLASSES) {
    it(`${operatorClass} (precise search): precision and recall 1.00 against the oracle, over 50 queries`, () => {
      const figures = operators.find((row) => row.operatorClass === operatorClass)!;
      expect(figures.queries).to.equal(50);
      expect(figures.misses, figures.misses.join('; ')).to.deep.equal([]);
      expect(figures.precision).to.equal(1);
      expect(figures.recall).to.equal(1);
    });
  }

  it('finds every corpus name that holds operator characters first, pasted as written, in capitals and padded (issue 69)', () => {
    expect(pasted.readAsOperators).to.be.at.least(100);
    expect(pasted.misses, pasted.misses.slice(0, 5).join('; ')).to.deep.equal([]);
    expect(pasted.first).to.equal(pasted.queries);
    expect(pasted.markedWhole).to.equal(pasted.operatorQueries);
  });

  for (const target of TARGETS) {
    it(describeTarget(target), () => {
      const actual = figuresOf(target.queryClass)[target.metric];
      if (isUpperBound(target)) {
        expect(actual).to.be.at.most(target.bound);
      } else {
        expect(actual).to.be.at.least(target.bound);
      }
    });
  }
});
