// GET /api/v1/ppas/export → batches of one search each: the list's query and sort, walked with search_after.
import { DETAIL_SOURCE_FIELDS } from '../../indexContract/sourceFields.js';
import type { ExportQuery } from '../params/export.js';
import { buildSearchQuery } from './searchQuery.js';
import type { SearchRequestBody } from '../gateway/gateway.js';
import { buildSort } from './listSearch.js';

/**
 * Records per batch. Small enough that Elasticsearch's answer and the batch's text stay under V8's large-object
 * size (128 KB): larger strings go straight to the old generation and are freed only by a full collection, so with
 * larger batches the heap (and the RSS) grew with every batch until V8 chose to collect. At 200 the garbage dies
 * young; the walk's extra round trips cost the raw walk as much (docs/performance.md).
 */
export const EXPORT_BATCH_SIZE = 200;

/**
 * Records per batch of an OCDS export: a release reads the detail's fields, several times a list item's bytes, so
 * fewer records keep a batch under the same size.
 */
export const OCDS_EXPORT_BATCH_SIZE = 50;

/** The records of one batch of this export. */
export const exportBatchSize = (query: ExportQuery): number =>
  query.format === 'ocds' ? OCDS_EXPORT_BATCH_SIZE : EXPORT_BATCH_SIZE;

/** The batch after `after` (the last batch's last sort values), or the first batch. */
export function buildExportBatch(query: ExportQuery, after?: unknown[]): SearchRequestBody {
  return {
    query: buildSearchQuery(query),
    sort: buildSort(query.sort),
    size: exportBatchSize(query),
    track_total_hits: false,
    _source: query.format === 'ocds' ? [...DETAIL_SOURCE_FIELDS] : [...query.fields],
    ...(after ? { search_after: after as (string | number)[] } : {}),
  };
}
