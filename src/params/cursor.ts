// Cursor paging: `cursor=*` starts a walk, each answer's meta.next_cursor continues it. The cursor holds the sort
// values of the last record returned (search_after), and a digest of them together with the query the walk
// began with, so a cursor replayed with other filters, q or sort, or altered, is refused (400 naming cursor).
//
// A digest rather than a signature (HMAC): it needs no secret shared by every replica and rotated by operators,
// and a client that forged a consistent cursor would gain nothing: it could only start its own walk at a
// position of its choosing, among records it may read anyway. No server-side state is kept per walk.
import { createHash } from 'node:crypto';
import type { SortOrder } from './sortOrder.js';
import { cursorBinding, type SearchFilters } from './filters.js';

/** Where a walk resumes: after these sort values; `missing`: past the last record that has a value for the
 * first sort key (the rest, which lack one, follow in slug order). */
export interface CursorPosition {
  after: (string | number)[];
  missing: boolean;
}

/** A decoded cursor: the start of a walk, or a position in one. */
export type Cursor = { start: true } | ({ start: false } & CursorPosition);

export const CURSOR_START = '*';
/** The query fields a walk is bound to (paging, fields and facets may change between pages). */
export interface WalkQuery extends SearchFilters {
  sort: SortOrder;
  slugs?: string[];
}

const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,1000}\.[A-Za-z0-9_-]{22}$/;

/** The walk's query in one canonical form: the filters' values it is bound to (their order within a list aside), the slugs and the sort. */
function canonicalQuery(query: WalkQuery): string {
  return JSON.stringify([...cursorBinding(query), query.slugs ? [...query.slugs].sort() : null, query.sort]);
}

function digest(binding: string, payload: string): string {
  return createHash('sha256').update(`${binding}\n${payload}`).digest('base64url').slice(0, 22);
}

export const encodeCursor = (query: WalkQuery, position: CursorPosition): string =>
  encodeBoundCursor(canonicalQuery(query), position);

/** The cursor for `query`, or a reason to refuse it (the caller names `cursor` in the 400). */
export const decodeCursor = (query: WalkQuery, value: string): Cursor | { problem: string } =>
  decodeBoundCursor(canonicalQuery(query), value);

/** A cursor bound to a walk's query in its canonical form `binding` (another list than the PPAs': the parties). */
export function encodeBoundCursor(binding: string, position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify([position.after, position.missing ? 1 : 0])).toString(
    'base64url',
  );
  return `${payload}.${digest(binding, payload)}`;
}

/** The cursor of the walk bound to `binding`, or a reason to refuse it. */
export function decodeBoundCursor(binding: string, value: string): Cursor | { problem: string } {
  if (value === CURSOR_START) return { start: true };
  const refused = {
    problem:
      'is not a cursor of this walk: it was altered, or the filters, q or sort differ from those the walk ' +
      'began with (start again with cursor=*)',
  };
  if (!CURSOR_PATTERN.test(value)) return refused;
  const [payload = '', check = ''] = value.split('.');
  if (digest(binding, payload) !== check) return refused;
  try {
    const [after, missing] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [
      unknown,
      unknown,
    ];
    if (!Array.isArray(after) || !after.every((v) => typeof v === 'string' || typeof v === 'number'))
      return refused;
    return { start: false, after: after as (string | number)[], missing: missing === 1 };
  } catch {
    return refused;
  }
}

/**
 * The position after a hit, from its sort values. Elasticsearch reports a missing date as ±2^63, which cannot
 * be sent back as search_after: such a position is "missing" (the rest lack the value too) with the slug alone.
 */
export function positionAfter(sortValues: readonly unknown[]): CursorPosition {
  const values = sortValues.map((value) =>
    typeof value === 'number' || typeof value === 'string' ? value : String(value),
  );
  const first = values[0];
  if (typeof first === 'number' && !Number.isSafeInteger(first) && Math.abs(first) >= 2 ** 62) {
    return { after: [values[values.length - 1] ?? ''], missing: true };
  }
  return { after: values, missing: false };
}
