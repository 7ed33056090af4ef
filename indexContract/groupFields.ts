// The counterparties and codes the roll-ups group by (GET /api/v1/ppas/statistics?group_by=…) that the index holds
// no keyword of otherwise: one keyword field each, holding the PPA's values as spelled, one per group key (a
// consortium's members, each once). The API merges the spellings of one key (indexContract/counterparties.ts:
// groupKey) and shows the most common; the indexer writes them (indexer/elasticsearch/buildDocument.ts).
import { consortiumMembers, groupKey } from './counterparties.js';
import type { PpaRecord } from './record.js';

/** The roll-up dimensions read from a field of their own, and that field. */
export const GROUP_FIELDS = {
  developer: 'group_developer',
  offtaker: 'group_offtaker',
  offtaker_type: 'group_offtaker_type',
  procuring_entity: 'group_procuring_entity',
  procurement_method: 'group_procurement_method',
  currency: 'group_currency',
} as const;

export type GroupFieldName = (typeof GROUP_FIELDS)[keyof typeof GROUP_FIELDS];

/** A value as the group fields hold it: spaces collapsed and trimmed; none when blank. */
function spelled(value: string | null | undefined): string[] {
  const text = value?.replace(/\s+/gu, ' ').trim() ?? '';
  return groupKey(text) === '' ? [] : [text];
}

/** The group fields of a record: each dimension's values as spelled, one per group key; empty when it has none. */
export function groupFieldValues(record: PpaRecord): Record<GroupFieldName, string[]> {
  return {
    group_developer: consortiumMembers(record.developer),
    group_offtaker: spelled(record.offtaker?.name),
    group_offtaker_type: spelled(record.offtaker?.type),
    group_procuring_entity: spelled(record.procurement?.procuring_entity),
    group_procurement_method: spelled(record.procurement?.method),
    group_currency: spelled(record.contract?.currency),
  };
}
