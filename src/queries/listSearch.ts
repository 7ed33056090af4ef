// GET /api/v1/ppas → one search request: hits of the page and the exact total in one round trip.
import type { estypes } from '@elastic/elasticsearch';
import type { ListQuery } from '../params/list.js';
import type { SortOrder } from '../params/sortOrder.js';
import { FLAG_SUBJECT_FIELDS, LIST_SOURCE_FIELDS } from '../../indexContract/sourceFields.js';
import type { SearchRequestBody } from '../gateway/gateway.js';
import { buildFacetedParts, type FacetAggregationOptions } from './facetAggregations.js';
import type { FilterClause } from '../params/filters.js';
import { buildNamedFilterClauses, buildSearchQuery, buildSelectionQuery } from './searchQuery.js';
import type { FacetName } from '../params/facets.js';

const SLUG_TIEBREAK: estypes.SortCombinations = { slug: { order: 'asc' } };

const SORT_KEYS: Record<SortOrder, estypes.SortCombinations | estypes.SortCombinations[]> = {
  relevance: { _score: { order: 'desc' } },
  name_asc: { name_sort: { order: 'asc' } },
  name_desc: { name_sort: { order: 'desc' } },
  capacity_asc: { capacity_mw: { order: 'asc' } },
  capacity_desc: { capacity_mw: { order: 'desc' } },
  recent: { published_at: { order: 'desc' } },
  oldest: { published_at: { order: 'asc' } },
  // Most red flags first, then the newest. flag_count is written on every document (an older index's count as 0,
  // so a cursor never meets a missing value there); the record schema requires published_at of every published PPA.
  flags_desc: [{ flag_count: { order: 'desc', missing: 0 } }, { published_at: { order: 'desc' } }],
};

/** The field the order is on (its first key). */
function sortField(sort: SortOrder): string {
  const keys = SORT_KEYS[sort];
  return Object.keys((Array.isArray(keys) ? keys[0] : keys) as Record<string, unknown>)[0] ?? 'slug';
}

/** The contract's orderings; every one ends with slug ascending so pages never overlap or skip. */
export function buildSort(sort: SortOrder): estypes.SortCombinations[] {
  const keys = SORT_KEYS[sort];
  return [...(Array.isArray(keys) ? keys : [keys]), SLUG_TIEBREAK];
}

/** The list's filter clauses: the named filters, the slug batch, and the cursor's position past missing dates. */
function listClauses(query: ListQuery): FilterClause[] {
  const clauses = buildNamedFilterClauses(query);
  if (query.slugs) clauses.push({ clause: { terms: { slug: query.slugs } } });
  // Past the last record with a published_at, the rest (they lack one) follow by slug: Elasticsearch cannot take
  // its placeholder for a missing date back as search_after. The record schema requires published_at of every
  // published record, so only an index written by other means can get here.
  if (resumeOf(query)?.missing) {
    clauses.push({ clause: { bool: { must_not: [{ exists: { field: sortField(query.sort) } }] } } });
  }
  return clauses;
}

/** What the items show; with the flags' evidence, what its rules read too. */
function sourceFieldsOf(query: ListQuery): string[] {
  const shown = query.fields ?? LIST_SOURCE_FIELDS;
  return query.evidence ? [...new Set([...shown, ...FLAG_SUBJECT_FIELDS])] : [...shown];
}

const resumeOf = (query: ListQuery) => (query.cursor && !query.cursor.start ? query.cursor : undefined);

/**
 * One search: the page's hits, the exact total and, when asked, the facet counts (src/queries/facetAggregations.ts).
 * Only the fields the items show are read from _source.
 */
export function buildListSearch(query: ListQuery): SearchRequestBody {
  const clauses = listClauses(query);
  const resume = resumeOf(query);
  const faceted =
    query.facets && query.facets.length > 0 ? buildFacetedParts(clauses, query.facets) : undefined;
  const body: SearchRequestBody = {
    query: buildSearchQuery(query, faceted ? faceted.queryClauses : clauses.map(({ clause }) => clause)),
    sort: resume?.missing ? [SLUG_TIEBREAK] : buildSort(query.sort),
    size: query.perPage,
    track_total_hits: true,
    _source: sourceFieldsOf(query),
  };
  // Page mode skips; cursor mode resumes after the last record it returned (search_after: no per-walk state).
  if (query.cursor) {
    if (resume) body.search_after = resume.after;
  } else body.from = (query.page - 1) * query.perPage;
  if (faceted) {
    if (faceted.postFilterClauses.length > 0)
      body.post_filter = { bool: { filter: faceted.postFilterClauses } };
    body.aggs = faceted.aggs;
  }
  return body;
}

/**
 * How many PPAs the list request would find with its filters (and slugs): a size-0 search of what it selects,
 * unscored (its `q` without the bonuses that only rank), the page, the sort and the cursor's place aside. What a
 * rewrite of an empty answer's `q` finds (./didYouMean.ts): its `meta.total`, exactly.
 */
export function buildListCountSearch(query: ListQuery): SearchRequestBody {
  const clauses = listClauses({ ...query, cursor: undefined }).map(({ clause }) => clause);
  return { query: buildSelectionQuery(query, clauses), size: 0, track_total_hits: true };
}

/**
 * The facet counts alone: a size-0 search with the list's query (without the facetable filters, as in
 * buildListSearch) and the facet aggregations.
 */
export function buildFacetCountSearch(
  query: ListQuery,
  facets: readonly FacetName[],
  options?: FacetAggregationOptions,
): SearchRequestBody {
  const faceted = buildFacetedParts(listClauses(query), facets, options);
  return {
    query: buildSearchQuery(query, faceted.queryClauses),
    size: 0,
    track_total_hits: false,
    aggs: faceted.aggs,
  };
}

/**
 * The searches a list request sends, all in one round trip (one _msearch when there are two). Without `q`, the
 * facets go in a search of their own beside the page's: counting every match of five facets is most of the work,
 * and a size-0 search is served from Elasticsearch's shard request cache when the same filters come back (other
 * pages, other sorts: the counts do not change) until the next refresh. With `q` the matches are few (counting is
 * cheap), the text query is the dear part and would run twice, and the same words rarely come back: one search.
 */
export function buildListSearches(
  query: ListQuery,
): [SearchRequestBody] | [SearchRequestBody, SearchRequestBody] {
  if (!query.facets || query.facets.length === 0 || query.q !== undefined) return [buildListSearch(query)];
  return [buildListSearch({ ...query, facets: undefined }), buildFacetCountSearch(query, query.facets)];
}
