// A served state with the change log's head at `seq` (no sync guard, no high-water mark), for unit tests of the
// live state; and one with a head of the test's own (or none: no change log yet).
import type { ChangeLogHead } from '../../indexContract/changeLog.js';
import type { ServedState } from '../../src/liveState/lookups.js';

export const servedStateAt = (seq: number): ServedState => servedStateOf({ seq, pending_to: seq });

/** A served state whose head is the default one (epoch "e", seq 0, nothing pruned) with `head` over it. */
export function servedStateOf(head: Partial<ChangeLogHead> | null): ServedState {
  return {
    head:
      head === null
        ? null
        : {
            epoch: 'e',
            created_at: '2026-11-26T00:00:00Z',
            seq: 0,
            pending_to: 0,
            pending_index: null,
            pruned_through: 0,
            retained_since: '2026-11-26T00:00:00Z',
            ...head,
          },
    syncGuard: null,
    highWaterMark: null,
  };
}
