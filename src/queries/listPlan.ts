// A list request's plan, built before anything is sent: the searches of one round trip (buildListSearches), and
// what follows when the combined facet aggregation could not hold every value (or the index is from before
// facet_values): the facet counts once more, one aggregation per facet; and when `q` found nothing, the count of
// its likeliest rewrites, once (./didYouMean.ts). Its result is all a list answer shows: the page's response, each
// asked facet's buckets, the rewrite offered, read here. The handler runs it; the presenter reads the result.
import type { estypes } from '@elastic/elasticsearch';
import type { ListSource } from '../../indexContract/sourceFields.js';
import type { FacetName } from '../params/facets.js';
import type { ListQuery } from '../params/list.js';
import { combinedFacetsComplete, readFacetBuckets, type FacetBucket } from './facetAggregations.js';
import type { SearchGateway, SearchRequestBody } from '../gateway/gateway.js';
import { buildFacetCountSearch, buildListSearches } from './listSearch.js';
import { listDidYouMean, type DidYouMean } from './didYouMean.js';
import type { Vocabulary } from '../matching/vocabulary.js';

export interface ListResult {
  /** The page: its hits and the exact total. */
  response: estypes.SearchResponse<ListSource>;
  /** Each asked facet's buckets, ordered and capped (absent: no facets asked). */
  facets?: Partial<Record<FacetName, FacetBucket[]>>;
  /**
   * `q` found nothing: the rewrite of it that finds something (meta.did_you_mean), null when none was looked for
   * (under pressure); absent when none finds anything.
   */
  didYouMean?: DidYouMean | null;
}

export interface ListPlan {
  /** The searches sent first, in one round trip (one _msearch when there are two). */
  searches: readonly SearchRequestBody[];
  run(gateway: SearchGateway): Promise<ListResult>;
}

/** `vocabulary`: the words a `q` that found nothing is rewritten towards (none: no rewrite is offered). */
export function planList(query: ListQuery, vocabulary?: Vocabulary): ListPlan {
  const searches = buildListSearches(query);
  return {
    searches,
    async run(gateway) {
      const startedAt = performance.now();
      const [response, facetCounts] =
        searches.length === 1
          ? [await gateway.search<ListSource>(searches[0])]
          : await gateway.msearch<ListSource>(searches);
      if (!response) throw new Error('the list search gave no answer');
      const result: ListResult = { response };
      if (query.facets) {
        let aggregations = (facetCounts ?? response).aggregations;
        if (!combinedFacetsComplete(aggregations)) {
          const separate = buildFacetCountSearch(query, query.facets, { combine: false });
          aggregations = (await gateway.search<ListSource>(separate)).aggregations;
        }
        result.facets = readFacetBuckets(aggregations, query.facets);
      }
      if (query.q !== undefined && vocabulary && totalOf(response) === 0) {
        const offered = await listDidYouMean(gateway, { ...query, q: query.q }, vocabulary, startedAt);
        if (offered !== undefined) result.didYouMean = offered;
      }
      return result;
    },
  };
}

const totalOf = ({ hits: { total } }: estypes.SearchResponse<ListSource>): number =>
  typeof total === 'number' ? total : (total?.value ?? 0);
