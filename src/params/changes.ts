// GET /api/v1/ppas/changes and /api/v1/ppas/feed: the list's filters and `q` (matched against each event's PPA
// as it was in that change), and for changes where to start (`since`) and how many (`limit`).
import Type from 'typebox';
import { declareQuery, withDefault } from './declare.js';
import { FILTER_PARAMETERS, readFilters, REPEATABLE_FILTERS, type SearchFilters } from './filters.js';

export const DEFAULT_CHANGES_LIMIT = 100;
export const MAX_CHANGES_LIMIT = 1000;
/** Events in a feed: the newest this many that match. */
export const FEED_ENTRIES = 50;

/** Where a token's sequence sits in its log: `<epoch>.<seq>` (opaque to clients). */
export interface ChangeToken {
  epoch: string;
  seq: number;
}

const TOKEN = /^([A-Za-z0-9]{1,16})\.(0|[1-9]\d{0,14})$/;
// RFC 3339 date-time (with a zone; fractions of a second allowed).
const RFC3339 =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt](?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d{1,9})?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

export function encodeChangeToken({ epoch, seq }: ChangeToken): string {
  return `${epoch}.${seq}`;
}

export function decodeChangeToken(text: string): ChangeToken | null {
  const match = TOKEN.exec(text);
  return match ? { epoch: match[1]!, seq: Number(match[2]) } : null;
}

export type ChangesStart = { after: ChangeToken } | { from: string } | { oldest: true };

export interface ChangesQuery {
  filters: SearchFilters;
  start: ChangesStart;
  limit: number;
}

/** GET /api/v1/ppas/changes's parameters, and where the changes start from them. */
export const changesQuery = declareQuery(
  {
    since: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description:
          'Where to start: a token (meta.next of a changes answer, meta.changes_since of a list answer, or the ' +
          'Changes-Since header of an export) returns the events after it; an RFC 3339 time (2026-11-26T08:00:00Z) ' +
          'the events from then on. Absent: from the oldest retained event. Older than the retention: 410, export again.',
      }),
    ),
    limit: withDefault(
      Type.Integer({
        minimum: 1,
        maximum: MAX_CHANGES_LIMIT,
        description: `Events per answer, 1 to ${MAX_CHANGES_LIMIT}.`,
      }),
      DEFAULT_CHANGES_LIMIT,
    ),
    ...FILTER_PARAMETERS,
  },
  (params, problems): ChangesQuery => {
    const filters = readFilters(params, problems);
    let start: ChangesStart = { oldest: true };
    if (params.since !== undefined) {
      const token = decodeChangeToken(params.since);
      if (token) start = { after: token };
      else if (RFC3339.test(params.since) && !Number.isNaN(Date.parse(params.since)))
        start = { from: new Date(Date.parse(params.since)).toISOString() };
      else
        problems.push({
          name: 'since',
          reason:
            'must be a token from an earlier answer (meta.next, meta.changes_since) or an RFC 3339 time',
        });
    }
    return { filters, start, limit: params.limit };
  },
  { repeatable: REPEATABLE_FILTERS },
);

/** GET /api/v1/ppas/feed's parameters: the filters and q. */
export const feedQuery = declareQuery(FILTER_PARAMETERS, readFilters, { repeatable: REPEATABLE_FILTERS });

/** Parses a changes request; throws BadRequestError naming every problem. */
export function parseChangesQuery(querystring: string): ChangesQuery {
  return changesQuery.parse(querystring);
}

/** Parses a feed request (the filters and q only); throws BadRequestError naming every problem. */
export function parseFeedQuery(querystring: string): SearchFilters {
  return feedQuery.parse(querystring);
}
