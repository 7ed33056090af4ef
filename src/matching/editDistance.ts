// The optimal-string-alignment distance (a transposition is one edit) bounded by the typos allowed, over reused
// typed arrays: it runs for the few pairs of words that lengths and letters could not tell apart (names.ts), and
// allocates nothing.
import { formOf, type Form } from './form.js';

// The letters of the two words being compared, and three rows of the distance table: reused, grown (room()) for a
// longer word.
let xs = new Int32Array(64);
let ys = new Int32Array(64);
let before = new Int32Array(65);
let previous = new Int32Array(65);
let current = new Int32Array(65);

/** Room in the reused arrays for words of up to `length` UTF-16 units. */
function room(length: number): void {
  if (length <= xs.length) return;
  const size = length * 2;
  xs = new Int32Array(size);
  ys = new Int32Array(size);
  before = new Int32Array(size + 1);
  previous = new Int32Array(size + 1);
  current = new Int32Array(size + 1);
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
 * through, `previous` holds the last row: previous[j] is the distance from xs to ys[0..j).
 */
function distanceTable(n: number, m: number, limit: number): boolean {
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
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
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  return true;
}

export function withinTypos(typed: Form, target: Form, limit: number): boolean {
  room(Math.max(typed.text.length, target.text.length));
  const n = lettersInto(typed, xs);
  const m = lettersInto(target, ys);
  return distanceTable(n, m, limit) && previous[m]! <= limit;
}

/** Whether typed is one typo from the start of target: of its first n − 1, n or n + 1 letters (n typed). */
export function startsWithOneTypo(typed: Form, target: Form): boolean {
  room(Math.max(typed.text.length, target.text.length));
  const n = lettersInto(typed, xs);
  const m = lettersInto(target, ys, n + 1);
  if (!distanceTable(n, m, 1)) return false;
  for (let cut = Math.max(1, n - 1); cut <= Math.min(m, n + 1); cut++) if (previous[cut]! <= 1) return true;
  return false;
}

/** Optimal-string-alignment distance of two words (a transposition is one edit), or limit + 1 once past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  const x = formOf(a);
  const y = formOf(b);
  if (Math.abs(x.letters - y.letters) > limit) return limit + 1;
  room(Math.max(a.length, b.length));
  const n = lettersInto(x, xs);
  const m = lettersInto(y, ys);
  if (!distanceTable(n, m, limit)) return limit + 1;
  return Math.min(previous[m]!, limit + 1);
}
