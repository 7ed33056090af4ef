// GET /api/v1/ppas → one search request: hits of the page and the exact total in one round trip.
import type { estypes } from '@elastic/elasticsearch';
import type { ListQuery, SortOrder } from '../params/list.js';
import { LIST_SOURCE_FIELDS } from '../../indexContract/sourceFields.js';
import type { SearchRequestBody } from './gateway.js';
import { buildSearchQuery } from './filters.js';

const SLUG_TIEBREAK: estypes.SortCombinations = { slug: { order: 'asc' } };

const SORT_KEYS: Record<SortOrder, estypes.SortCombinations> = {
  relevance: { _score: { order: 'desc' } },
  name_asc: { name_sort: { order: 'asc' } },
  name_desc: { name_sort: { order: 'desc' } },
  capacity_asc: { capacity_mw: { order: 'asc' } },
  capacity_desc: { capacity_mw: { order: 'desc' } },
  recent: { published_at: { order: 'desc' } },
  oldest: { published_at: { order: 'asc' } },
};

/** The contract's orderings; every one ends with slug ascending so pages never overlap or skip. */
export function buildSort(sort: SortOrder): estypes.SortCombinations[] {
  return [SORT_KEYS[sort], SLUG_TIEBREAK];
}

export function buildListSearch(query: ListQuery): SearchRequestBody {
  return {
    query: buildSearchQuery(query),
    sort: buildSort(query.sort),
    from: (query.page - 1) * query.perPage,
    size: query.perPage,
    track_total_hits: true,
    _source: [...LIST_SOURCE_FIELDS],
  };
}
