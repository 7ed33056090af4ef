// A served state with the change log's head at `seq` (no sync guard, no high-water mark), for unit tests of the
// live state.
import type { ServedState } from '../../src/liveState/lookups.js';

export const servedStateAt = (seq: number): ServedState => ({
  head: {
    epoch: 'e',
    created_at: '2026-11-26T00:00:00Z',
    seq,
    pending_to: seq,
    pending_index: null,
    pruned_through: 0,
    retained_since: '2026-11-26T00:00:00Z',
  },
  syncGuard: null,
  highWaterMark: null,
});
