// A reindex's last step before its swap (indexer/reindex/): the changes committed since its snapshot, applied to
// the new index, and the documents of rows deleted since, deleted, so it goes live as fresh as the one it
// replaces. A sync run (syncRun.ts) on an index that is not live yet: nothing is logged or guarded (the swap logs
// and guards the whole generation), and it always compares slugs.
import type { Client } from '@elastic/elasticsearch';
import { applyChanges } from '../elasticsearch/changeBulk.js';
import type { IndexerLogger } from '../indexerLog.js';
import type { CatchUpSource } from '../sources/recordSource.js';
import { PostgresChangeReader } from '../sources/postgresChanges.js';
import { DEFAULT_BATCH_SIZE, DEFAULT_OVERLAP_S, RecentlyApplied, runOnIndex } from './syncRun.js';

/**
 * `from.snapshotSlugs` are the slugs of the reindex's snapshot in byte order: every document of the new index
 * has one of them or was written by this catch-up from a row that exists, so the slugs among them that are no
 * longer rows are all the documents to delete. Comparing them instead of the index's own slugs spares listing
 * the whole index; `vanished` then also counts rows deleted that were never in the index (unpublished).
 */
export async function catchUp(
  client: Client,
  index: string,
  from: CatchUpSource,
  logger: IndexerLogger,
): Promise<void> {
  const reader = new PostgresChangeReader(from.url, from.relation);
  try {
    const summary = await runOnIndex({
      client,
      index,
      reader,
      target: {
        prepare: async (snapshot) => snapshot.vanished(from.snapshotSlugs()),
        write: async (changes) => {
          await applyChanges(client, index, changes);
          return 0;
        },
      },
      recent: new RecentlyApplied(),
      shouldReconcile: () => true,
      overlapSeconds: from.overlapSeconds ?? DEFAULT_OVERLAP_S,
      batchSize: DEFAULT_BATCH_SIZE,
      logger,
    });
    // Searches must not see what the catch-up deleted once the alias points here.
    await client.indices.refresh({ index });
    logger.info({ catchUp: summary }, 'applied the changes made during the build');
  } finally {
    await reader.close();
  }
}
