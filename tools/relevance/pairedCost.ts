// The cost of a change to the text query, paired query by query: every list query of the suite sent with an
// earlier tuning step and with the API's query, one right after the other (which one first alternates), on one
// index, with the request cache off, reading Elasticsearch's own `took`. On a shared machine the load moves
// between two runs of the suite; it moves far less between two searches sent back to back.
import type { SearchGateway } from '../../src/gateway/gateway.js';
import { median, quantile } from './rankingMetrics.js';
import { isSuggestClass, type RelevanceQuery } from './queries.js';
import { listRequest } from './runner.js';
import type { TextQueryBuilder } from './variants.js';

export interface TookFigures {
  median: number;
  mean: number;
  p90: number;
}

export interface PairedCost {
  queries: number;
  before: TookFigures;
  after: TookFigures;
}

function tookFigures(values: readonly number[]): TookFigures {
  const mean = values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  return { median: median(values), mean, p90: quantile(values, 0.9) };
}

/** `before` and `after` (the API's query when absent) on every list query, one query at a time. */
export async function pairedCost(
  search: SearchGateway,
  queries: readonly RelevanceQuery[],
  before: TextQueryBuilder,
  after?: TextQueryBuilder,
): Promise<PairedCost> {
  const took = { before: [] as number[], after: [] as number[] };
  const listQueries = queries.filter((query) => !isSuggestClass(query.queryClass));
  for (const [index, query] of listQueries.entries()) {
    const runs: ['before' | 'after', TextQueryBuilder | undefined][] = [
      ['before', before],
      ['after', after],
    ];
    if (index % 2 === 1) runs.reverse();
    for (const [side, textQuery] of runs) {
      const response = await search.search({ ...listRequest(query.q, textQuery), request_cache: false });
      took[side].push(response.took);
    }
  }
  return { queries: listQueries.length, before: tookFigures(took.before), after: tookFigures(took.after) };
}

export function pairedCostLine(variant: string, cost: PairedCost): string {
  const line = ({ median: p50, mean, p90 }: TookFigures) =>
    `median ${p50} ms, mean ${mean.toFixed(1)} ms, p90 ${p90} ms`;
  const change = ((cost.after.mean / cost.before.mean - 1) * 100).toFixed(0);
  return (
    `Elasticsearch took, ${cost.queries} list queries paired (request cache off): ` +
    `${variant} ${line(cost.before)}; current ${line(cost.after)} (mean ${Number(change) >= 0 ? '+' : ''}${change} %)`
  );
}
