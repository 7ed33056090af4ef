// The relevance suite as a function: queries from the records, run against an indexed alias, figures per class.
import type { Client } from '@elastic/elasticsearch';
import type { PpaRecord } from '../../indexContract/record.js';
import { createSearchGateway } from '../../src/gateway/gateway.js';
import { createLiveLookups } from '../../src/liveState/lookups.js';
import { readVocabulary } from '../../src/liveState/vocabularyWatcher.js';
import { classFigures, type ClassFigures, type QueryResult } from './rankingMetrics.js';
import { generateQueries, QUERY_CLASSES } from './queries.js';
import { runQueries } from './runner.js';
import { checkTargets, type TargetCheck } from './targets.js';
import type { TextQueryBuilder } from './variants.js';

export interface SuiteOptions {
  seed: number;
  perClass: number;
  concurrency?: number;
  /** Replaces the API's text clause (an earlier tuning step); the API's own query when absent. */
  textQuery?: TextQueryBuilder;
}

/** 300 queries per class: a few hundred each, and the whole suite stays well under a minute. */
export const DEFAULT_SUITE = { seed: 9, perClass: 300 } as const;

export interface SuiteRun {
  figures: ClassFigures[];
  checks: TargetCheck[];
  results: QueryResult[];
  querySeconds: number;
}

export async function runSuite(
  client: Client,
  alias: string,
  records: readonly PpaRecord[],
  options: SuiteOptions,
): Promise<SuiteRun> {
  const queries = generateQueries(records, options);
  // The gateway does not close a client it was given; this one is the caller's.
  const search = createSearchGateway({ client, alias, requestTimeoutMs: 30_000 });
  // The words "did you mean" rewrites towards, read from the index as the API reads them.
  const lookups = createLiveLookups({ client, alias, requestTimeoutMs: 30_000 });
  const vocabulary = await readVocabulary((after) => lookups.vocabularyPage(after));
  const started = Date.now();
  const results = await runQueries(search, queries, options.concurrency, options.textQuery, vocabulary);
  const querySeconds = (Date.now() - started) / 1000;
  const figures = QUERY_CLASSES.map((queryClass) =>
    classFigures(
      queryClass,
      results.filter((result) => result.query.queryClass === queryClass),
    ),
  );
  return { figures, checks: checkTargets(figures), results, querySeconds };
}
