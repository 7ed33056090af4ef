// Change-log hits → the changes answer (docs/api.md, "Changes and feeds") and the events the feed renders.
import type { estypes } from '@elastic/elasticsearch';
import type { ChangeEventSource } from '../queries/changesSearch.js';
import { encodeChangeToken, MAX_CHANGES_LIMIT } from '../params/changes.js';
import { canonicalUtc } from '../../indexContract/text/timestamp.js';
import { ChangeEventSchema, type ChangeEvent } from './changeEvent.js';
import { record, ref, timestamp, Type, type Static } from '../wire/bodySchema.js';
import { API_PATHS } from '../http/apiPath.js';
import { withParameters } from './links.js';
import { presentListItem } from './ppa.js';

export type { ChangeEvent };

/** The changes body (component Changes of the document). */
export const ChangesSchema = record({
  data: Type.Array(ref('ChangeEvent', ChangeEventSchema), { maxItems: MAX_CHANGES_LIMIT }),
  meta: record({
    next: Type.String({
      maxLength: 40,
      description:
        'The since of the next request: after the last event here, or, when fewer than limit matched, as far as ' +
        'the log had been read (a filtered follower never scans the same events twice).',
    }),
    retained_since: timestamp('The log holds every event since then (CHANGES_RETENTION_DAYS).'),
  }),
  links: record({
    self: Type.String({ format: 'uri' }),
    next: Type.String({ format: 'uri', description: 'This request with since=meta.next.' }),
  }),
});
export type ChangesBody = Static<typeof ChangesSchema>;

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
  // next: every other parameter as it stood, `since` the token to go on from, last.
  const next = withParameters(options, { since: options.next }, ['since'], API_PATHS.changes);
  return {
    data: events,
    meta: { next: options.next, retained_since: options.retainedSince },
    links: { self: withParameters(options, {}, [], API_PATHS.changes), next },
  };
}
