// GET /api/v1/ppas/changes and /api/v1/ppas/feed: the list's filters and `q` (matched against each event's PPA
// as it was in that change), and for changes where to start (`since`) and how many (`limit`).
import { BadRequestError } from '../http/problem.js';
import {
  capacityProblems,
  filterProperties,
  foldedTextProblems,
  parameterDocs,
  REPEATABLE_FILTERS,
  toFilters,
  type SearchFilters,
} from './filters.js';
import { readQueryString } from './querystring.js';
import { paramsValidator, validOnly, type ParamsSchema } from './validate.js';

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

export const feedParamsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { ...filterProperties },
} satisfies ParamsSchema;

export const changesParamsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    since: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      description:
        'Where to start: a token (meta.next of a changes answer, meta.changes_since of a list answer, or the ' +
        'Changes-Since header of an export) returns the events after it; an RFC 3339 time (2026-11-26T08:00:00Z) ' +
        'the events from then on. Absent: from the oldest retained event. Older than the retention: 410, export again.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_CHANGES_LIMIT,
      default: DEFAULT_CHANGES_LIMIT,
      description: `Events per answer, 1 to ${MAX_CHANGES_LIMIT}.`,
    },
    ...filterProperties,
  },
} satisfies ParamsSchema;

export const changesParameters = parameterDocs(changesParamsSchema.properties);
export const feedParameters = parameterDocs(feedParamsSchema.properties);

const NOT_HERE = 'is not a parameter of the change log (it follows changes in order, from since)';
const changesValidator = paramsValidator(changesParamsSchema, {
  repeatable: REPEATABLE_FILTERS,
  unknownReasons: { page: NOT_HERE, per_page: NOT_HERE, sort: NOT_HERE, cursor: NOT_HERE },
});
const FEED_NOT_HERE = 'is not a feed parameter (a feed holds the newest 50 matching changes)';
const feedValidator = paramsValidator(feedParamsSchema, {
  repeatable: REPEATABLE_FILTERS,
  unknownReasons: { page: FEED_NOT_HERE, per_page: FEED_NOT_HERE, sort: FEED_NOT_HERE, since: FEED_NOT_HERE },
});

/** Parses a changes request; throws BadRequestError naming every problem. */
export function parseChangesQuery(querystring: string): ChangesQuery {
  const { params, problems } = changesValidator.validate(readQueryString(querystring));
  const valid = validOnly(params, problems);
  const filters = toFilters(valid);
  problems.push(...capacityProblems(filters), ...foldedTextProblems(filters));
  let start: ChangesStart = { oldest: true };
  if (typeof valid.since === 'string') {
    const token = decodeChangeToken(valid.since);
    if (token) start = { after: token };
    else if (RFC3339.test(valid.since) && !Number.isNaN(Date.parse(valid.since)))
      start = { from: new Date(Date.parse(valid.since)).toISOString() };
    else
      problems.push({
        name: 'since',
        reason: 'must be a token from an earlier answer (meta.next, meta.changes_since) or an RFC 3339 time',
      });
  }
  if (problems.length > 0) throw new BadRequestError(problems);
  return { filters, start, limit: typeof valid.limit === 'number' ? valid.limit : DEFAULT_CHANGES_LIMIT };
}

/** Parses a feed request (the filters and q only); throws BadRequestError naming every problem. */
export function parseFeedQuery(querystring: string): SearchFilters {
  const { params, problems } = feedValidator.validate(readQueryString(querystring));
  const filters = toFilters(validOnly(params, problems));
  problems.push(...capacityProblems(filters), ...foldedTextProblems(filters));
  if (problems.length > 0) throw new BadRequestError(problems);
  return filters;
}
