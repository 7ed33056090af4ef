// The JSON of one change-log event (docs/api.md, "Changes and feeds"): shared by the changes list and the feed.
import type { ChangeReason, ChangeType } from '../../indexContract/changeLog.js';
import type { PpaListItem } from './ppa.js';

/** The list item as served after an upsert, or as last served before a removal, plus `active`. */
export type ChangeItem = PpaListItem & { active: boolean };

export interface ChangeEvent {
  /** Opaque; `since=<token>` returns the events after this one. */
  token: string;
  type: ChangeType;
  reason: ChangeReason;
  slug: string;
  /** When the change reached the index (ISO 8601 UTC, `Z`). */
  at: string;
  item: ChangeItem;
}
