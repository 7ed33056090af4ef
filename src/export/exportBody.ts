// The body of an export: batches of records from Elasticsearch (search_after), as CSV, NDJSON or OCDS JSON Lines
// text, one chunk per batch. Pulled by the response stream: at most one batch is fetched ahead of what the socket has taken
// (backpressure), so memory stays flat whatever the size.
import type { estypes } from '@elastic/elasticsearch';
import type { ExportQuery } from '../params/export.js';
import { OUTPUT_FORMATS, type ExportTarget } from './formats.js';
import { buildExportBatch, exportBatchSize } from '../queries/exportSearch.js';
import type { SearchGateway } from '../gateway/gateway.js';
import type { ListSource } from '../../indexContract/sourceFields.js';

// The renderers are the format table's; these names stay here for what imported them from the export's body.
export { csvText, exportColumns, ndjsonText, ocdsLinesText, type ExportTarget } from './formats.js';

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
  return { text: OUTPUT_FORMATS.export[query.format].render({ query, target, sources, withHeader }), next };
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
