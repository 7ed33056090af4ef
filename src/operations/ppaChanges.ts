// GET /api/v1/ppas/changes: the change log as JSON from `since`, oldest first, matching the list's filters and `q`
// against each event's PPA as it was in that change (docs/api.md, "Changes and feeds").
import { API_PATHS } from '../http/apiPath.js';
import { GoneError } from '../http/problem.js';
import { apiResponses, badRequest, ifNoneMatch, problem, requestIdHeader } from '../openapi/responses.js';
import { changesQuery, encodeChangeToken } from '../params/changes.js';
import { ChangeEventSchema } from '../present/changeEvent.js';
import { ChangesSchema, presentChanges, presentEvents } from '../present/changes.js';
import { buildChangesSearch, type ChangeEventSource, type EventsStart } from '../queries/changesSearch.js';
import { operation } from './operation.js';
import { logHead } from './shared.js';

const EXPORT_AGAIN =
  'Take a new export (GET /api/v1/ppas/export, its Changes-Since header) and follow the changes from there.';

export const ppaChanges = operation({
  path: API_PATHS.changes,
  query: changesQuery,
  notHere: 'the change log follows changes in order, from since',
  doc: {
    operationId: 'ppaChanges',
    tags: ['ppas'],
    summary: 'Every change to what the API serves, in order, from since',
    description:
      'Oldest first: published, updated, deactivated, reactivated (type upsert), unpublished, deleted (type ' +
      'remove), from sync, reindexes and rollbacks alike; tokens only grow. The list filters and q match each ' +
      "event's PPA as it was in that change (a removal as last served). Follow meta.next (links.next) until data " +
      'is empty, then poll. A since older than the retention (CHANGES_RETENTION_DAYS, default 90) is 410: take ' +
      'a new export. "changes" is never looked up as a slug.',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: apiResponses(
      { description: 'The next events and where to go on from.', schema: 'Changes' },
      {
        '400': badRequest,
        '410': problem('since is older than the change log retains (or from a log made anew): export again.'),
      },
    ),
  },
  schemas: { ChangeEvent: ChangeEventSchema, Changes: ChangesSchema },
  handler:
    (deps) =>
    async ({ query, answer, base, canonicalQuery }) => {
      const querystring = canonicalQuery();
      await answer(`${base} ${querystring}`, async () => {
        // Read before the search: every event up to the head is visible to it (published after a refresh).
        const head = await logHead(deps);
        let start: EventsStart;
        if ('after' in query.start) {
          const { epoch, seq } = query.start.after;
          if (epoch !== head.epoch)
            throw new GoneError(`This token is from another change log (it was made anew). ${EXPORT_AGAIN}`);
          if (seq < head.pruned_through)
            throw new GoneError(
              `Changes before ${head.retained_since} are no longer kept (the retention). ${EXPORT_AGAIN}`,
            );
          start = { afterSeq: seq };
        } else if ('from' in query.start) {
          if (head.pruned_through > 0 && Date.parse(query.start.from) < Date.parse(head.retained_since))
            throw new GoneError(
              `Changes before ${head.retained_since} are no longer kept (the retention). ${EXPORT_AGAIN}`,
            );
          start = { from: query.start.from };
        } else start = { afterSeq: head.pruned_through };
        const response = await deps.search.searchChangeLog<ChangeEventSource>(
          buildChangesSearch(query.filters, start, query.limit, 'asc'),
        );
        const hits = response.hits.hits;
        const last = hits.at(-1)?._source?.change.seq;
        const from = 'afterSeq' in start ? start.afterSeq : 0;
        // A full page goes on after its last event; a short one saw every match up to the head, so it goes on from
        // there (a filtered follower does not scan the same events again).
        const nextSeq = hits.length === query.limit ? last! : Math.max(last ?? from, head.seq, from);
        const events = presentEvents(response, head.epoch, base);
        return {
          body: presentChanges(events, {
            next: encodeChangeToken({ epoch: head.epoch, seq: nextSeq }),
            retainedSince: head.retained_since,
            base,
            querystring,
          }),
        };
      });
    },
});
