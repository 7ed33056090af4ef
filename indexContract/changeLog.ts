// The change log (docs/record.md, "The change log and the guards"): every change to what the API serves, kept in
// order in one index next to the alias's generations, `<alias>-changes`, written by the indexer (sync, reindex,
// rollback) and read by every API instance. An event is the PPA's whole index document as served at that moment
// plus a `change` object, so the list's filters and `q` apply to events as they do to the live index; one more
// document, HEAD_ID, holds the log's head (the last sequence made visible) and what retention pruned.

/** Why an event was written; the first four leave the PPA served ("upsert"), the last two take it away ("remove"). */
export const CHANGE_REASONS = [
  'published',
  'updated',
  'deactivated',
  'reactivated',
  'unpublished',
  'deleted',
] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];
export type ChangeType = 'upsert' | 'remove';

export function changeTypeOf(reason: ChangeReason): ChangeType {
  return reason === 'unpublished' || reason === 'deleted' ? 'remove' : 'upsert';
}

/** The `change` object of an event document. */
export interface ChangeFields {
  /** Only grows, across syncs, reindexes and rollbacks: the order events are applied in. */
  seq: number;
  type: ChangeType;
  reason: ChangeReason;
  /** When the change reached the index (ISO 8601 UTC). */
  at: string;
}

/** The head document's `log` object. */
export interface ChangeLogHead {
  /** Chosen when the log was created: tokens of another log (deleted and made again) are refused with 410. */
  epoch: string;
  /** When the log was created (ISO 8601 UTC): tag URIs of feed entries carry its date. */
  created_at: string;
  /** The last sequence visible to searches (0: none yet). */
  seq: number;
  /** Events above `seq` up to this one were written by a writer that has not made them visible yet. */
  pending_to: number;
  /** What those pending events belong to: the index the alias must point at for them to be true (null: sync's). */
  pending_index: string | null;
  /** Every event up to this sequence was pruned by retention: a `since` before it is 410. */
  pruned_through: number;
  /** The oldest time still fully retained (ISO 8601 UTC). */
  retained_since: string;
  /** When the last published change reached the index (null: none yet): the change lag's reference. */
  last_at?: string | null;
}

export const HEAD_ID = 'head';

/** The log's index, next to the alias's `<alias>-<timestamp>` generations (never one of them). */
export function changeLogIndexName(alias: string): string {
  return `${alias}-changes`;
}

/** CHANGES_RETENTION_DAYS's default: events older than this are pruned. */
export const DEFAULT_RETENTION_DAYS = 90;
