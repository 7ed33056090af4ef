// Whether a word of `q` names a word of a served value, by the typo rules of the list's and suggest's queries
// (src/search/textQuery.ts, suggestSearch.ts), for highlights. A highlighted page compares every typed form with
// every word of every searched field of every item, so the comparison allocates nothing: a word's letter count is
// taken once (Form), lengths rule most pairs out before any distance, and the bounded distance runs over reused
// typed arrays.

/** A word in one of its forms, with what the comparisons need of it. */
export interface Form {
  text: string;
  /** Code points (letters): what the typo rules count. */
  letters: number;
  /** Holds a letter outside the BMP (a UTF-16 pair): compared by code point, not by unit. */
  astral: boolean;
  /**
   * Which letters it holds, each as bit (code unit mod 32): a letter of one word in no bucket of the other takes
   * an edit, so words whose buckets differ by more than the typos allowed are told apart without a distance.
   */
  letterBits: number;
}

/**
 * What was searched: the list's `q` searches the four text fields and the descriptors (technology, country), one
 * typo from five letters (two from eight); suggest searches the project name only, one typo from five letters.
 */
export type HighlightMode = 'list' | 'suggest';

/**
 * The typo rules a word is compared by: its mode's in names; 'text' in the developer and the location (the list
 * looks for a word there as typed, with fuzziness AUTO:5,8, or the word being typed as a start, and for nothing
 * else); 'exact' in the reference code (as typed, or the start of the word being typed).
 */
export type TypoRules = HighlightMode | 'text' | 'exact';

const MAX_TYPO_LETTERS = 30;

export function formOf(text: string): Form {
  let letters = text.length;
  let letterBits = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff) letters--; // the second half of an astral letter
    letterBits |= 1 << (unit & 31);
  }
  return { text, letters, astral: letters !== text.length, letterBits };
}

/** Set bits of a 32-bit number. */
export function bitCount(bits: number): number {
  let count = bits - ((bits >>> 1) & 0x55555555);
  count = (count & 0x33333333) + ((count >>> 2) & 0x33333333);
  return (((count + (count >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** How many of the letters of `typed` are in no bucket of `letterBits` (each takes an edit). */
export function missingLetters(typed: Form, letterBits: number): number {
  return bitCount(typed.letterBits & ~letterBits);
}

/**
 * The typos a typed word may carry against a word of the value `targetLetters` letters long: the list's fuzziness
 * AUTO:5,8 (one from five letters, two from eight), a dropped letter from four typed letters (the dropped-letter
 * and first-letter spellings), two typos in six or seven typed letters against a longer word (textQuery.ts
 * twoTypos); suggest one from five letters (a dropped letter from four); text the fuzziness alone; exact none.
 */
export function allowedTypos(typed: Form, targetLetters: number, mode: TypoRules): number {
  const letters = typed.letters;
  if (letters > MAX_TYPO_LETTERS || mode === 'exact') return 0;
  const longer = targetLetters > letters;
  if (mode === 'text') return letters >= 8 ? 2 : letters >= 5 ? 1 : 0;
  if (mode === 'list') {
    if (letters >= 8) return 2;
    if (letters >= 6 && longer) return 2;
    if (letters >= 5) return 1;
  } else if (letters >= 5) return 1;
  return letters >= 4 && longer ? 1 : 0;
}

/** Whether `typed` names `target`: equal, within the typos allowed, or (the word being typed) its start. */
export function names(typed: Form, target: Form, last: boolean, mode: TypoRules): boolean {
  const a = typed.text;
  const b = target.text;
  if (a === '' || b === '') return false;
  if (a === b) return true;
  if (last && b.startsWith(a)) return true;
  // At most two typos, each changing the length by at most two UTF-16 units (an astral letter): lengths further
  // apart cannot name each other, except a word being typed, which may be the start of a longer one.
  if (Math.abs(a.length - b.length) > 4 && !(last && b.length > a.length)) return false;
  // Typed letters that the target lacks: each takes an edit, also against any start of the target.
  const missing = bitCount(typed.letterBits & ~target.letterBits);
  const typos = allowedTypos(typed, target.letters, mode);
  if (
    typos > 0 &&
    missing <= typos &&
    Math.abs(typed.letters - target.letters) <= typos &&
    bitCount(target.letterBits & ~typed.letterBits) <= typos &&
    withinTypos(typed, target, typos)
  ) {
    return true;
  }
  // The start of a word with one typo, the first letter as typed (suggest's fuzzy prefixes, prefix_length 1).
  return (
    last &&
    (mode === 'list' || mode === 'suggest') &&
    missing <= 1 &&
    typed.letters >= 4 &&
    a.codePointAt(0) === b.codePointAt(0) &&
    startsWithOneTypo(typed, target)
  );
}

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

function withinTypos(typed: Form, target: Form, limit: number): boolean {
  room(Math.max(typed.text.length, target.text.length));
  const n = lettersInto(typed, xs);
  const m = lettersInto(target, ys);
  return distanceTable(n, m, limit) && previous[m]! <= limit;
}

/** Whether typed is one typo from the start of target: of its first n − 1, n or n + 1 letters (n typed). */
function startsWithOneTypo(typed: Form, target: Form): boolean {
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
