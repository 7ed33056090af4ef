// Runs each query through the API's own request path: parseListQuery → buildListSearch → the search gateway
// (one search on the alias), then reads the rank of the expected record and meta.total (hits.total).
import { SearchText } from '../../src/matching/queryText.js';
import type { estypes } from '@elastic/elasticsearch';
import { parseListQuery } from '../../src/params/list.js';
import { parseSuggestQuery } from '../../src/params/suggest.js';
import type { SuggestSource } from '../../src/present/suggest.js';
import { buildSuggestSearch } from '../../src/queries/suggestSearch.js';
import type { ListSource } from '../../indexContract/sourceFields.js';
import type { SearchGateway } from '../../src/gateway/gateway.js';
import { buildListSearch } from '../../src/queries/listSearch.js';
import { listDidYouMean } from '../../src/queries/didYouMean.js';
import type { Vocabulary } from '../../src/matching/vocabulary.js';
import { highlighterFor, presentList } from '../../src/present/list.js';
import { presentSuggestions } from '../../src/present/suggest.js';
import { highlightsPass } from './highlightCheck.js';
import { rankOf, recallAt10, type QueryResult } from './rankingMetrics.js';
import { isSuggestClass, type RelevanceQuery } from './queries.js';
import type { TextQueryBuilder } from './variants.js';

/** Hits read per query (a page the API allows). Ranks past it count as misses (reciprocal rank 0). */
export const HITS_READ = 50;

export function totalOf(total: estypes.SearchTotalHits | number | undefined): number {
  return typeof total === 'number' ? total : (total?.value ?? 0);
}

/** Where the presented items point (their url): the figures never read it. */
const BASE = 'http://relevance.invalid';

/** The list query for `q`, with highlights (issue 46): the search itself is the same without them. */
const listQueryOf = (q: string) =>
  parseListQuery(`q=${encodeURIComponent(q)}&per_page=${HITS_READ}&highlight=true`);

/** The list request for `q` as the API builds it, its text clause replaced by `textQuery` when given. */
export function listRequest(q: string, textQuery?: TextQueryBuilder): ReturnType<typeof buildListSearch> {
  const listQuery = listQueryOf(q);
  const request = buildListSearch(listQuery);
  if (textQuery && listQuery.q !== undefined) {
    request.query = { bool: { ...request.query?.bool, must: [textQuery(listQuery.q.text)] } };
  }
  return request;
}

/**
 * For a list query that found nothing: the rewrite the API offers (meta.did_you_mean, through the list plan's own
 * step, listDidYouMean) and the rank of the expected record when it is followed (its list request, as a person clicking it sends).
 */
async function followedOffer(
  search: SearchGateway,
  query: RelevanceQuery,
  vocabulary: Vocabulary,
): Promise<Pick<QueryResult, 'didYouMean' | 'followedRank'>> {
  const listQuery = listQueryOf(query.q);
  const offer = await listDidYouMean(
    search,
    { ...listQuery, q: listQuery.q ?? new SearchText(query.q) },
    vocabulary,
  );
  if (!offer) return {};
  const response = await search.search<ListSource>(listRequest(offer.q));
  const hits = response.hits.hits.map((hit) => hit._source?.slug ?? '');
  return { didYouMean: offer.q, followedRank: rankOf(hits, query.equivalent) };
}

/**
 * `textQuery` replaces the text clause of the list request (to re-measure an earlier step of the tuning log);
 * without it the request is exactly the API's. `vocabulary`: a list query that finds nothing is followed through
 * its "did you mean" (issue 69).
 */
export async function runQuery(
  search: SearchGateway,
  query: RelevanceQuery,
  textQuery?: TextQueryBuilder,
  vocabulary?: Vocabulary,
): Promise<QueryResult> {
  if (isSuggestClass(query.queryClass)) return runSuggestQuery(search, query);
  const request = listRequest(query.q, textQuery);
  const started = process.hrtime.bigint();
  const response = await search.search<ListSource>(request);
  const tookMs = Number(process.hrtime.bigint() - started) / 1e6;
  const hits = response.hits.hits.map((hit) => hit._source?.slug ?? '');
  const rank = rankOf(hits, query.equivalent);
  let highlightOk: boolean | undefined;
  if (rank !== null) {
    // The expected item as the API presents it with highlight=true.
    const listQuery = listQueryOf(query.q);
    const highlight = highlighterFor(listQuery);
    const { body } = presentList({ response }, { query: listQuery, querystring: '', base: BASE, highlight });
    const item = body.data[rank - 1];
    highlightOk = item !== undefined && highlightsPass(query.queryClass, query.q, item, item.highlights);
  }
  const total = totalOf(response.hits.total);
  return {
    query,
    rank,
    ...(highlightOk === undefined ? {} : { highlightOk }),
    total,
    top: hits.slice(0, 5),
    recall10: recallAt10(hits, query.equivalent),
    tookMs,
    esTookMs: response.took,
    ...(total === 0 && vocabulary ? await followedOffer(search, query, vocabulary) : {}),
  };
}

/** Suggestions to read per query: a search box shows about ten. */
export const SUGGESTIONS_READ = 10;

/** A suggest class: through the suggest endpoint's request path; total is how many names were suggested. */
async function runSuggestQuery(search: SearchGateway, query: RelevanceQuery): Promise<QueryResult> {
  const suggestQuery = parseSuggestQuery(
    `q=${encodeURIComponent(query.q)}&limit=${SUGGESTIONS_READ}&highlight=true`,
  );
  const request = buildSuggestSearch(suggestQuery);
  const started = process.hrtime.bigint();
  const response = await search.search<SuggestSource>(request);
  const tookMs = Number(process.hrtime.bigint() - started) / 1e6;
  const hits = response.hits.hits.map((hit) => hit._source?.slug ?? '');
  const rank = rankOf(hits, query.equivalent);
  let highlightOk: boolean | undefined;
  if (rank !== null) {
    const item = presentSuggestions(response, BASE, suggestQuery).data[rank - 1];
    highlightOk = item !== undefined && highlightsPass(query.queryClass, query.q, item, item.highlights);
  }
  return {
    query,
    rank,
    ...(highlightOk === undefined ? {} : { highlightOk }),
    total: hits.length,
    top: hits.slice(0, 5),
    recall10: recallAt10(hits, query.equivalent),
    tookMs,
    esTookMs: response.took,
  };
}

/** Runs the queries with a little concurrency (the machine is shared), keeping the results in query order. */
export async function runQueries(
  search: SearchGateway,
  queries: readonly RelevanceQuery[],
  concurrency = 3,
  textQuery?: TextQueryBuilder,
  vocabulary?: Vocabulary,
): Promise<QueryResult[]> {
  const results: QueryResult[] = new Array(queries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queries.length) {
      const index = next++;
      results[index] = await runQuery(search, queries[index] as RelevanceQuery, textQuery, vocabulary);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}
