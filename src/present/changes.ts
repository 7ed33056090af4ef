// Change-log hits → the changes answer (docs/api.md, "Changes and feeds") and the events the feed renders.
import type { estypes } from '@elastic/elasticsearch';
import type { ChangeEventSource } from '../search/changesSearch.js';
import { encodeChangeToken } from '../params/changes.js';
import { canonicalUtc } from '../../indexContract/text/timestamp.js';
import type { ChangeEvent } from './changeEvent.js';
import { PPAS_PATH, presentListItem, trimSlash } from './ppa.js';

export type { ChangeEvent };

export const CHANGES_PATH = `${PPAS_PATH}/changes`;

export interface ChangesBody {
  data: ChangeEvent[];
  meta: {
    /** Where the next request starts (`since`): after the last event here, or further when nothing matched. */
    next: string;
    /** The oldest time the log still holds every event since. */
    retained_since: string;
  };
  links: { self: string; next: string };
}

export function presentEvent(source: ChangeEventSource, epoch: string, base: string): ChangeEvent {
  const { change } = source;
  return {
    token: encodeChangeToken({ epoch, seq: change.seq }),
    type: change.type,
    reason: change.reason,
    slug: source.slug,
    at: canonicalUtc(change.at) ?? change.at,
    item: { ...presentListItem(source, base), active: source.active },
  };
}

export function presentEvents(
  response: estypes.SearchResponse<ChangeEventSource>,
  epoch: string,
  base: string,
): ChangeEvent[] {
  return response.hits.hits.map((hit) => presentEvent(hit._source!, epoch, base));
}

/** `querystring` is the canonical query string of the request; `since` is replaced in the links. */
export function presentChanges(
  events: ChangeEvent[],
  options: { next: string; retainedSince: string; base: string; querystring: string },
): ChangesBody {
  const others = options.querystring.split('&').filter((pair) => pair !== '' && !pair.startsWith('since='));
  const url = (since: string | null) => {
    const pairs = since === null ? others : [...others, `since=${encodeURIComponent(since)}`];
    return `${trimSlash(options.base)}${CHANGES_PATH}${pairs.length ? `?${pairs.join('&')}` : ''}`;
  };
  const self = options.querystring
    ? `${trimSlash(options.base)}${CHANGES_PATH}?${options.querystring}`
    : url(null);
  return {
    data: events,
    meta: { next: options.next, retained_since: options.retainedSince },
    links: { self, next: url(options.next) },
  };
}
