// Ranks and per-class figures. A query succeeds at k when a record it should find is among the first k hits,
// where records with the same folded name as the expected one count as the expected one (see queries.ts).
import type { QueryClass, RelevanceQuery } from './queries.js';

export interface QueryResult {
  query: RelevanceQuery;
  /** 1-based rank of the first equivalent record among the hits read; null when not among them. */
  rank: number | null;
  /** meta.total of the list answer (hits.total). */
  total: number;
  /** The slugs of the first hits, for the report's examples. */
  top: string[];
  /** Share of the answers (all the equivalent records, at most 10) among the first 10 hits. */
  recall10: number;
  tookMs: number;
  /** Elasticsearch's own `took` (ms): its time for the search, without the round trip and the client. */
  esTookMs: number;
  /** Whether the expected item's highlights pass the check (highlightCheck.ts); absent when it was not returned. */
  highlightOk?: boolean;
  /** It found nothing and "did you mean" offered this `q` (issue 69). */
  didYouMean?: string;
  /** The rank of the expected record when the offer is followed; null when not among the hits read. */
  followedRank?: number | null;
}

export interface ClassFigures {
  queryClass: QueryClass;
  queries: number;
  success1: number;
  success3: number;
  success10: number;
  /** Mean recall@10: the share of a query's answers (up to 10) among its first 10 hits. */
  recall10: number;
  mrr: number;
  medianTotal: number;
  p90Total: number;
  maxTotal: number;
  /** Gibberish: how many queries returned anything (must be 0). */
  nonEmpty: number;
  medianMs: number;
  /** Median and p90 of Elasticsearch's `took`: the cost of the query itself. */
  medianTook: number;
  p90Took: number;
  /**
   * Of the queries whose expected PPA was returned, the share whose highlights pass (highlightCheck.ts); 1 when
   * none was returned (gibberish).
   */
  highlighted: number;
  /** Share of the queries that found nothing as typed. */
  empty: number;
  /** Of those, the share "did you mean" offered a rewrite for (0 when none found nothing). */
  offered: number;
  /** Of those, the share whose offer, followed, puts the expected PPA among the first 3. */
  followed3: number;
}

/** Rank of the first hit that is an acceptable answer; null when none of the hits is. */
export function rankOf(hits: readonly string[], equivalent: readonly string[]): number | null {
  const accepted = new Set(equivalent);
  const index = hits.findIndex((slug) => accepted.has(slug));
  return index < 0 ? null : index + 1;
}

/** Share of the acceptable answers (all of them, or 10 when there are more) among the first 10 hits. */
export function recallAt10(hits: readonly string[], equivalent: readonly string[]): number {
  if (equivalent.length === 0) return 0;
  const accepted = new Set(equivalent);
  const found = hits.slice(0, 10).filter((slug) => accepted.has(slug)).length;
  return found / Math.min(10, accepted.size);
}

/** Nearest-rank quantile (p90: the value 90 % of the queries do not exceed). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

/** The usual median: the mean of the two middle values when the count is even. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return ((sorted[(sorted.length - 1) >> 1] ?? 0) + (sorted[sorted.length >> 1] ?? 0)) / 2;
}

export function classFigures(queryClass: QueryClass, results: readonly QueryResult[]): ClassFigures {
  const n = results.length;
  const share = (predicate: (result: QueryResult) => boolean): number =>
    n === 0 ? 0 : results.filter(predicate).length / n;
  const totals = results.map((result) => result.total);
  const gibberish = queryClass === 'gibberish';
  return {
    queryClass,
    queries: n,
    success1: gibberish ? share((r) => r.total === 0) : share((r) => r.rank !== null && r.rank <= 1),
    success3: gibberish ? share((r) => r.total === 0) : share((r) => r.rank !== null && r.rank <= 3),
    success10: gibberish ? share((r) => r.total === 0) : share((r) => r.rank !== null && r.rank <= 10),
    recall10: gibberish || n === 0 ? 0 : results.reduce((sum, r) => sum + r.recall10, 0) / n,
    mrr: gibberish ? 0 : n === 0 ? 0 : results.reduce((sum, r) => sum + (r.rank ? 1 / r.rank : 0), 0) / n,
    medianTotal: median(totals),
    p90Total: quantile(totals, 0.9),
    maxTotal: Math.max(0, ...totals),
    nonEmpty: results.filter((r) => r.total > 0).length,
    medianMs: median(results.map((r) => r.tookMs)),
    medianTook: median(results.map((r) => r.esTookMs)),
    p90Took: quantile(
      results.map((r) => r.esTookMs),
      0.9,
    ),
    highlighted: highlightedShare(results),
    ...didYouMeanShares(results),
  };
}

/** The "did you mean" figures: of the queries that found nothing, how many got an offer, and one that leads there. */
function didYouMeanShares(
  results: readonly QueryResult[],
): Pick<ClassFigures, 'empty' | 'offered' | 'followed3'> {
  const empty = results.filter((r) => r.total === 0);
  const shareOfEmpty = (predicate: (result: QueryResult) => boolean) =>
    empty.length === 0 ? 0 : empty.filter(predicate).length / empty.length;
  return {
    empty: results.length === 0 ? 0 : empty.length / results.length,
    offered: shareOfEmpty((r) => r.didYouMean !== undefined),
    followed3: shareOfEmpty((r) => r.followedRank != null && r.followedRank <= 3),
  };
}

function highlightedShare(results: readonly QueryResult[]): number {
  const checked = results.filter((r) => r.highlightOk !== undefined);
  return checked.length === 0 ? 1 : checked.filter((r) => r.highlightOk).length / checked.length;
}
