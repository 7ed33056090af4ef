// "Did you mean": for a list or suggest request with `q` that found nothing, the first rewrite of `q`
// (src/matching/rewrite/, best first) that finds something, with how much it finds. One round trip: a count of the
// likeliest rewrites at once (one _msearch of size-0 searches with the same filters), only ever after an empty
// answer, so an answer with results costs what it did.
import type { SearchGateway, SearchRequestBody } from '../gateway/gateway.js';
import { rewritesOf } from '../matching/rewrite/rewrites.js';
import type { Vocabulary } from '../matching/vocabulary.js';
import { isListQ } from '../params/filters.js';
import type { ListQuery } from '../params/list.js';
import { MAX_SUGGEST_Q_LENGTH, type SuggestQuery } from '../params/suggest.js';
import { buildListCountSearch } from './listSearch.js';
import { buildSuggestCountSearch } from './suggestSearch.js';

/** Rewrites counted per empty answer: the likeliest few (each is a search of its own in the _msearch). */
export const REWRITES_COUNTED = 6;

export interface DidYouMean {
  /** The rewritten `q`. */
  q: string;
  /** What it finds: the `meta.total` of the same request with it. */
  total: number;
}

/** The first of `rewrites` (best first) that finds something, counted by `countOf` in one round trip. */
export async function firstThatFinds(
  search: SearchGateway,
  rewrites: readonly string[],
  countOf: (q: string) => SearchRequestBody,
): Promise<DidYouMean | undefined> {
  const asked = rewrites.slice(0, REWRITES_COUNTED);
  if (asked.length === 0) return undefined;
  const responses = await search.msearch(asked.map(countOf));
  for (const [index, response] of responses.entries()) {
    const total = response.hits.total;
    const found = typeof total === 'number' ? total : (total?.value ?? 0);
    if (found > 0) return { q: asked[index]!, total: found };
  }
  return undefined;
}

/** For a list request whose `q` found nothing: the first rewrite of `q` that finds something under its filters. */
export function listDidYouMean(
  search: SearchGateway,
  query: ListQuery & { q: string },
  vocabulary: Vocabulary,
): Promise<DidYouMean | undefined> {
  const rewrites = rewritesOf(query.q, vocabulary, 'list', REWRITES_COUNTED).filter(isListQ);
  return firstThatFinds(search, rewrites, (q) => buildListCountSearch({ ...query, q }));
}

/** For suggestions that found nothing: the first rewrite of `q` (read as typed text) that suggests something. */
export function suggestDidYouMean(
  search: SearchGateway,
  query: SuggestQuery,
  vocabulary: Vocabulary,
): Promise<DidYouMean | undefined> {
  const rewrites = rewritesOf(query.q, vocabulary, 'suggest', REWRITES_COUNTED).filter(
    (q) => q.length <= MAX_SUGGEST_Q_LENGTH,
  );
  return firstThatFinds(search, rewrites, (q) => buildSuggestCountSearch({ ...query, q }));
}
