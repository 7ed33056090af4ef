// The body of an export: batches of records from Elasticsearch (search_after), as CSV, NDJSON or OCDS JSON Lines
// text, one chunk per batch. Pulled by the response stream: at most one batch is fetched ahead of what the socket has taken
// (backpressure), so memory stays flat whatever the size.
import type { estypes } from '@elastic/elasticsearch';
import type { ExportQuery } from '../params/export.js';
import { csvRows } from '../present/csv.js';
import { listItem, type ListItem } from '../present/list.js';
import { ppaCompiledRelease } from '../present/ocdsRelease.js';
import { presentPpa } from '../present/ppa.js';
import { buildExportBatch, exportBatchSize } from '../queries/exportSearch.js';
import type { SearchGateway } from '../gateway/gateway.js';
import type { DetailSource, ListSource } from '../../indexContract/sourceFields.js';

/** The columns of an export: the chosen fields, then url. */
export function exportColumns(query: ExportQuery): string[] {
  return [...query.fields, 'url'];
}

export function csvText(items: readonly ListItem[], columns: readonly string[], withHeader: boolean): string {
  const rows = items.map((item) => columns.map((column) => (item as Record<string, unknown>)[column]));
  return csvRows(withHeader ? [[...columns], ...rows] : rows);
}

export function ndjsonText(items: readonly ListItem[]): string {
  return items.map((item) => `${JSON.stringify(item)}\n`).join('');
}

/** OCDS's bulk form: each PPA's compiled release, one a line (the batch read the detail's fields). */
export function ocdsLinesText(sources: readonly DetailSource[], base: string, ocidPrefix: string): string {
  return sources
    .map((source) => `${JSON.stringify(ppaCompiledRelease(presentPpa(source, base), ocidPrefix))}\n`)
    .join('');
}

/** Where an export's text is written for: absolute links, and an OCDS export's ocid prefix. */
export interface ExportTarget {
  base: string;
  ocidPrefix: string;
}

function batchText(
  query: ExportQuery,
  target: ExportTarget,
  sources: ListSource[],
  withHeader: boolean,
): string {
  if (query.format === 'ocds')
    return ocdsLinesText(sources as DetailSource[], target.base, target.ocidPrefix);
  const items = sources.map((source) => listItem(source, target.base, query.fields));
  return query.format === 'csv' ? csvText(items, exportColumns(query), withHeader) : ndjsonText(items);
}

/** One batch's text, and the search for the batch after it (asked for before the text is built). */
function renderBatch(
  query: ExportQuery,
  search: SearchGateway,
  target: ExportTarget,
  response: estypes.SearchResponse<ListSource>,
  withHeader: boolean,
): { text: string; next: Promise<estypes.SearchResponse<ListSource>> | undefined } {
  const hits = response.hits.hits;
  const last = hits[hits.length - 1];
  // The next batch is asked for before this one is written: Elasticsearch works while the socket drains. An
  // export that has started holds an export slot: its later batches are not queued or refused by admission
  // (an export cut mid-stream under load would be worse than one refused before its first byte).
  const next =
    hits.length === exportBatchSize(query) && last?.sort
      ? search.search<ListSource>(buildExportBatch(query, last.sort), { unqueued: true })
      : undefined;
  next?.catch(() => undefined); // if the client leaves, the prefetch is dropped unread
  const sources = hits.flatMap((hit) => (hit._source ? [hit._source] : []));
  return { text: batchText(query, target, sources, withHeader), next };
}

/**
 * The export's text, batch by batch, starting from the first batch's answer (asked for before the first byte,
 * so that a failure there is still an ordinary error answer). While a batch's text waits for the socket, only
 * that text and the prefetched answer are held: the parsed batch is built into text and let go in
 * renderBatch, so it dies young instead of being promoted to V8's old space by the wait (see EXPORT_BATCH_SIZE).
 */
export async function* exportChunks(
  query: ExportQuery,
  search: SearchGateway,
  target: ExportTarget,
  first: { response?: estypes.SearchResponse<ListSource> },
): AsyncGenerator<string> {
  let response = first.response;
  first.response = undefined;
  for (let batch = 0; response; batch++) {
    const { text, next } = renderBatch(query, search, target, response, batch === 0);
    response = undefined;
    yield text;
    response = next ? await next : undefined;
  }
}
