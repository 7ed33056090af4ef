// GET /api/v1/ppas/export → batches of one search each: the list's query and sort, walked with search_after.
import type { ExportQuery } from '../params/export.js';
import { buildSearchQuery } from './filters.js';
import type { SearchRequestBody } from './gateway.js';
import { buildSort } from './listSearch.js';

/** Records per batch: large enough that the walk's round trips cost little, small enough to keep memory flat. */
export const EXPORT_BATCH_SIZE = 1000;

/** The batch after `after` (the last batch's last sort values), or the first batch. */
export function buildExportBatch(query: ExportQuery, after?: unknown[]): SearchRequestBody {
  return {
    query: buildSearchQuery(query),
    sort: buildSort(query.sort),
    size: EXPORT_BATCH_SIZE,
    track_total_hits: false,
    _source: [...query.fields],
    ...(after ? { search_after: after as (string | number)[] } : {}),
  };
}
