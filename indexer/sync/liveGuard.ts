// The removal guard of a sync run on the live index: the documents the run would delete (rows changed to
// unpublished whose document is live, and vanished rows) against --max-removed of the live PPAs. Past it, the run
// applies nothing: the state goes into the live index's _meta (the API's /health/ready and metrics show it) and
// the run fails with exit 5; follow mode keeps retrying, so a repaired source lets the next run through.
import type { Client } from '@elastic/elasticsearch';
import { documentsById } from '../changes/loggedWrites.js';
import {
  checkRemovals,
  DEFAULT_MAX_REMOVED,
  describeLimit,
  MassRemovalError,
  parseRemovalLimit,
  type RemovalLimit,
} from '../changes/removalGuard.js';
import { recordSyncGuard } from '../elasticsearch/indexMeta.js';
import type { ChangeSnapshot } from '../sources/postgresChanges.js';

/** Slugs per request when asking which of the unpublished rows still have a live document. */
const IDS_PER_REQUEST = 1000;

export async function guardLiveRemovals(
  client: Client,
  index: string,
  snapshot: ChangeSnapshot,
  run: {
    from: string;
    overlapSeconds: number;
    /** Rows that no longer exist, counted by the slug comparison (0 when this run does not compare). */
    vanished: number;
    /** Since when the guard has held runs back (the live index's _meta), if it has. */
    heldSince: string | undefined;
    maxRemoved: RemovalLimit | undefined;
  },
): Promise<void> {
  const limit = run.maxRemoved ?? parseRemovalLimit(DEFAULT_MAX_REMOVED);
  const slugs = await snapshot.unpublishedSince(run.from, run.overlapSeconds);
  let unpublished = 0;
  for (let start = 0; start < slugs.length; start += IDS_PER_REQUEST) {
    const ids = slugs.slice(start, start + IDS_PER_REQUEST);
    unpublished += (await documentsById(client, index, ids)).size;
  }
  const { count: live } = await client.count({ index });
  try {
    checkRemovals('sync', unpublished + run.vanished, live, limit);
  } catch (error) {
    if (error instanceof MassRemovalError) {
      await recordSyncGuard(client, index, {
        since: run.heldSince ?? new Date().toISOString(),
        removals: error.removals,
        live,
        max_removed: describeLimit(limit),
        detail: error.message,
      });
    }
    throw error;
  }
  if (run.heldSince !== undefined) await recordSyncGuard(client, index, null);
}
