// The optimal-string-alignment distance (a transposition is one edit) bounded by the typos allowed. It runs for
// the few pairs of words that lengths and letters could not tell apart (names.ts), over the rows of one answer
// (DistanceRows: made per answer by the highlighter, reused pair after pair, so that a comparison allocates
// nothing and no state outlives its answer).
import { formOf, type Form } from './form.js';

/** Room for words of this many UTF-16 units before the rows grow. */
const FIRST_ROOM = 64;

/** The letters of the two words being compared and three rows of the distance table, grown for a longer word. */
export class DistanceRows {
  xs = new Int32Array(FIRST_ROOM);
  ys = new Int32Array(FIRST_ROOM);
  before = new Int32Array(FIRST_ROOM + 1);
  previous = new Int32Array(FIRST_ROOM + 1);
  current = new Int32Array(FIRST_ROOM + 1);

  /** Room for words of up to `length` UTF-16 units. */
  room(length: number): void {
    if (length <= this.xs.length) return;
    const size = length * 2;
    this.xs = new Int32Array(size);
    this.ys = new Int32Array(size);
    this.before = new Int32Array(size + 1);
    this.previous = new Int32Array(size + 1);
    this.current = new Int32Array(size + 1);
  }

  /** Moves the rows down one: the current row becomes the previous one, the previous one the one before. */
  shift(): void {
    const spare = this.before;
    this.before = this.previous;
    this.previous = this.current;
    this.current = spare;
  }
}

/** Puts a word's letters (code points), up to `limit` of them, into `into`; returns how many. */
function lettersInto(form: Form, into: Int32Array, limit = Infinity): number {
  const text = form.text;
  let count = 0;
  if (!form.astral) {
    const end = Math.min(text.length, limit);
    for (; count < end; count++) into[count] = text.charCodeAt(count);
    return count;
  }
  for (let i = 0; i < text.length && count < limit; count++) {
    const point = text.codePointAt(i)!;
    into[count] = point;
    i += point > 0xffff ? 2 : 1;
  }
  return count;
}

/**
 * The optimal-string-alignment table (a transposition is one edit) of xs[0..n) against ys[0..m), row by row;
 * false as soon as a whole row is past `limit` (no cell of a later row can come back under it). When it gets
 * through, `rows.previous` holds the last row: previous[j] is the distance from xs to ys[0..j).
 */
function distanceTable(rows: DistanceRows, n: number, m: number, limit: number): boolean {
  const { xs, ys } = rows;
  for (let j = 0; j <= m; j++) rows.previous[j] = j;
  for (let i = 1; i <= n; i++) {
    const { before, previous, current } = rows;
    const x = xs[i - 1]!;
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const y = ys[j - 1]!;
      let value = previous[j - 1]! + (x === y ? 0 : 1);
      const deleted = previous[j]! + 1;
      if (deleted < value) value = deleted;
      const inserted = current[j - 1]! + 1;
      if (inserted < value) value = inserted;
      if (i > 1 && j > 1 && x === ys[j - 2] && xs[i - 2] === y) {
        const transposed = before[j - 2]! + 1;
        if (transposed < value) value = transposed;
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return false;
    rows.shift();
  }
  return true;
}

/** Whether `typed` is within `limit` edits of `target`. */
export function withinTypos(rows: DistanceRows, typed: Form, target: Form, limit: number): boolean {
  rows.room(Math.max(typed.text.length, target.text.length));
  const n = lettersInto(typed, rows.xs);
  const m = lettersInto(target, rows.ys);
  return distanceTable(rows, n, m, limit) && rows.previous[m]! <= limit;
}

/** Whether typed is `typos` edits from the start of target: of its first n − typos to n + typos letters (n typed). */
export function startsWithTypos(rows: DistanceRows, typed: Form, target: Form, typos: number): boolean {
  rows.room(Math.max(typed.text.length, target.text.length));
  const n = lettersInto(typed, rows.xs);
  const m = lettersInto(target, rows.ys, n + typos);
  if (!distanceTable(rows, n, m, typos)) return false;
  for (let cut = Math.max(1, n - typos); cut <= Math.min(m, n + typos); cut++) {
    if (rows.previous[cut]! <= typos) return true;
  }
  return false;
}

/**
 * Optimal-string-alignment distance of two words (a transposition is one edit), or limit + 1 once past `limit`:
 * for callers outside an answer (tools, tests), with rows of its own.
 */
export function editDistance(a: string, b: string, limit: number): number {
  const x = formOf(a);
  const y = formOf(b);
  if (Math.abs(x.letters - y.letters) > limit) return limit + 1;
  const rows = new DistanceRows();
  rows.room(Math.max(a.length, b.length));
  const n = lettersInto(x, rows.xs);
  const m = lettersInto(y, rows.ys);
  if (!distanceTable(rows, n, m, limit)) return limit + 1;
  return Math.min(rows.previous[m]!, limit + 1);
}

/** The distance from `typed` to `target` in edits, or `limit` + 1 once past `limit`, on an answer's rows. */
export function boundedDistance(rows: DistanceRows, typed: Form, target: Form, limit: number): number {
  if (Math.abs(typed.letters - target.letters) > limit) return limit + 1;
  rows.room(Math.max(typed.text.length, target.text.length));
  const n = lettersInto(typed, rows.xs);
  const m = lettersInto(target, rows.ys);
  if (!distanceTable(rows, n, m, limit)) return limit + 1;
  return Math.min(rows.previous[m]!, limit + 1);
}

/**
 * The fewest edits from `typed` to a start of `target` (of its first n − limit to n + limit letters, n typed), or
 * `limit` + 1 once past `limit`: how far the word being typed is from a word it may be the start of.
 */
export function boundedStartDistance(rows: DistanceRows, typed: Form, target: Form, limit: number): number {
  rows.room(Math.max(typed.text.length, target.text.length));
  const n = lettersInto(typed, rows.xs);
  const m = lettersInto(target, rows.ys, n + limit);
  if (!distanceTable(rows, n, m, limit)) return limit + 1;
  let best = limit + 1;
  for (let cut = Math.max(1, n - limit); cut <= Math.min(m, n + limit); cut++) {
    best = Math.min(best, rows.previous[cut]!);
  }
  return best;
}
