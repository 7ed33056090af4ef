// The change log's searches (indexContract/changeLog.ts): events whose PPA matches the list's filters and `q`
// (as it was in that change; deactivated ones included), in sequence order. `q` is a filter here: events come in
// their order, never by score, so nothing is scored.
import type { estypes } from '@elastic/elasticsearch';
import type { ChangeFields } from '../../indexContract/changeLog.js';
import { LIST_SOURCE_FIELDS, type ListSource } from '../../indexContract/sourceFields.js';
import { filterClauses, type SearchFilters } from '../params/filters.js';
import type { SearchRequestBody } from '../gateway/gateway.js';
import { buildTextQuery } from './textQuery.js';

/** What an event answer reads back: the list item's fields, `active` and the change. */
export type ChangeEventSource = ListSource & { active: boolean; change: ChangeFields };

const EVENT_SOURCE_FIELDS = [...LIST_SOURCE_FIELDS, 'active', 'change'];

/** Where a page of events starts: after a sequence, or from a time. */
export type EventsStart = { afterSeq: number } | { from: string };

/** `size` events matching `filters` from `start`, oldest first (`asc`) or newest first (`desc`, the feed). */
export function buildChangesSearch(
  filters: SearchFilters,
  start: EventsStart,
  size: number,
  order: 'asc' | 'desc',
): SearchRequestBody {
  const filter: estypes.QueryDslQueryContainer[] = [
    'afterSeq' in start
      ? { range: { 'change.seq': { gt: start.afterSeq } } }
      : { range: { 'change.at': { gte: start.from } } },
    ...filterClauses(filters).map(({ clause }) => clause),
  ];
  if (filters.q !== undefined) filter.push(buildTextQuery(filters.q));
  return {
    size,
    track_total_hits: false,
    _source: EVENT_SOURCE_FIELDS,
    sort: [{ 'change.seq': order }],
    query: { bool: { filter } },
  };
}
