// What the live index's _meta says while sync holds back a run that would remove more than --max-removed of the
// live PPAs (written by the indexer, read by the API's /health/ready and metrics). Absent: nothing is held back.

/** The _meta field that holds it. */
export const SYNC_GUARD_FIELD = 'sync_guard';

export interface SyncGuardState {
  /** When the first held-back run was refused (ISO 8601 UTC). */
  since: string;
  /** Documents the run would have removed, and the live PPAs it would have removed them from. */
  removals: number;
  live: number;
  /** The --max-removed in force ("5%", "250"). */
  max_removed: string;
  /** The refusal in words. */
  detail: string;
}
