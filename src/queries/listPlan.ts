// A list request's plan, built before anything is sent: the searches of one round trip (buildListSearches), and
// what follows when the combined facet aggregation could not hold every value (or the index is from before
// facet_values): the facet counts once more, one aggregation per facet. Its result is all a list answer shows: the
// page's response and each asked facet's buckets, read here. The handler runs it; the presenter reads the result.
import type { estypes } from '@elastic/elasticsearch';
import type { ListSource } from '../../indexContract/sourceFields.js';
import type { FacetName } from '../params/facets.js';
import type { ListQuery } from '../params/list.js';
import { combinedFacetsComplete, readFacetBuckets, type FacetBucket } from './facetAggregations.js';
import type { SearchGateway, SearchRequestBody } from '../gateway/gateway.js';
import { buildFacetCountSearch, buildListSearches } from './listSearch.js';

export interface ListResult {
  /** The page: its hits and the exact total. */
  response: estypes.SearchResponse<ListSource>;
  /** Each asked facet's buckets, ordered and capped (absent: no facets asked). */
  facets?: Partial<Record<FacetName, FacetBucket[]>>;
}

export interface ListPlan {
  /** The searches sent first, in one round trip (one _msearch when there are two). */
  searches: readonly SearchRequestBody[];
  run(gateway: SearchGateway): Promise<ListResult>;
}

export function planList(query: ListQuery): ListPlan {
  const searches = buildListSearches(query);
  return {
    searches,
    async run(gateway) {
      const [response, facetCounts] =
        searches.length === 1
          ? [await gateway.search<ListSource>(searches[0])]
          : await gateway.msearch<ListSource>(searches);
      if (!response) throw new Error('the list search gave no answer');
      if (!query.facets) return { response };
      let aggregations = (facetCounts ?? response).aggregations;
      if (!combinedFacetsComplete(aggregations)) {
        const separate = buildFacetCountSearch(query, query.facets, { combine: false });
        aggregations = (await gateway.search<ListSource>(separate)).aggregations;
      }
      return { response, facets: readFacetBuckets(aggregations, query.facets) };
    },
  };
}
