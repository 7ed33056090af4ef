// Indexes the shipped sample (or another source) under an alias with the real reindex, for integration tests.
import type { Client } from '@elastic/elasticsearch';
import { fileURLToPath } from 'node:url';
import { reindex, type ReindexOptions, type ReindexSummary } from '../../indexer/reindex/reindex.js';

export const SAMPLE_PATH = fileURLToPath(new URL('../../data/sample-ppas.ndjson', import.meta.url));

/**
 * Builds `<alias>-<timestamp>` from the source and points `alias` at it. Use a uniqueName() alias and delete
 * `${alias}*` afterwards (deleteIndices); the reindex releases its lock (in ppa-indexer-locks) itself.
 */
export function indexSample(
  client: Client,
  alias: string,
  sourcePath: string = SAMPLE_PATH,
  options: Pick<ReindexOptions, 'maxRemoved'> = {},
): Promise<ReindexSummary> {
  return reindex({ client, alias, source: sourcePath, ...options });
}
