// A served value cut into words as Elasticsearch's standard tokenizer cuts them (indexContract/text/prefixes.ts
// STANDARD_TOKEN), on the served text so that the offsets are the served value's, for highlights (highlights.ts).
// Cut by hand (the presenter's inner loop: a pattern with a lookbehind cost a microsecond a value), and a plain
// word's letters are read off the value on the way (a plain word, ASCII letters and digits that canonical.ts writes
// no other way, is its own only form, lowercased), also in a value with letters past ASCII.
import { ROMAN_NUMERALS, SECTOR_ABBREVIATIONS } from '../../indexContract/text/canonical.js';

/** Words of a value looked at: the served fields are bounded (record.md), this only keeps a page's cost bounded. */
const MAX_VALUE_WORDS = 256;

/**
 * The words of the last value cutServedValue() cut, by number (reused, not copied: an answer is presented
 * synchronously, one value at a time): [start, end) in the value, and a plain word's letters as Form.letterBits
 * (typedWord.ts), -1 for any other word.
 */
export const SERVED_WORDS = { starts: [] as number[], ends: [] as number[], plainLetters: [] as number[] };

/** The words canonical.ts writes another way (numerals, abbreviations, lowercase): not plain words. */
const OTHER_FORMS = [...new Set([...Object.keys(ROMAN_NUMERALS), ...Object.keys(SECTOR_ABBREVIATIONS)])];
/** Those words are this long at most: a longer word is not one of them. */
const OTHER_FORMS_MAX_LENGTH = Math.max(...OTHER_FORMS.map((word) => word.length));

/** OTHER_FORMS by length and first letter (length × 128 + unit): a word is compared with a handful at most. */
const OTHER_FORMS_BY_START: string[][] = [];
for (const word of OTHER_FORMS)
  (OTHER_FORMS_BY_START[word.length * 128 + word.charCodeAt(0)] ??= []).push(word);

/** Whether value[start, end), ASCII, is one of OTHER_FORMS, case aside (compared in place: no string made). */
function isOtherForm(value: string, start: number, end: number): boolean {
  const length = end - start;
  const candidates = OTHER_FORMS_BY_START[length * 128 + (value.charCodeAt(start) | 32)];
  if (candidates === undefined) return false;
  search: for (const word of candidates) {
    for (let i = 1; i < length; i++) {
      const unit = value.charCodeAt(start + i);
      const lower = unit >= 65 && unit <= 90 ? unit + 32 : unit;
      if (lower !== word.charCodeAt(i)) continue search;
    }
    return true;
  }
  return false;
}

const isWordUnit = (unit: number) =>
  (unit >= 97 && unit <= 122) || (unit >= 65 && unit <= 90) || (unit >= 48 && unit <= 57) || unit === 95;

/** The letters of value[start, end) as Form.letterBits when it is a plain word, else -1. */
function plainLetterBits(value: string, start: number, end: number): number {
  let bits = 0;
  let letters = false;
  for (let i = start; i < end; i++) {
    const unit = value.charCodeAt(i);
    if (!isWordUnit(unit) || unit === 95) return -1;
    if (unit >= 65) letters = true;
    // A letter's bucket is the same in either case (unit & 31): no lowercasing needed.
    bits |= 1 << (unit & 31);
  }
  // Digits alone are no numeral (only roman ones are written another way).
  if (letters && end - start <= OTHER_FORMS_MAX_LENGTH && isOtherForm(value, start, end)) return -1;
  return bits;
}

// What a code point is to the tokenizer's pattern: no word unit, a word unit ([\p{L}\p{M}_]), or a number (\p{N},
// also a word unit). Past ASCII each BMP unit is asked of the pattern once and kept (a value's letters recur).
const NONE = 1;
const WORD = 2;
const NUMBER = 3;
const BMP_CLASSES = new Uint8Array(0x10000);
for (let unit = 0; unit < 128; unit++) {
  BMP_CLASSES[unit] = unit >= 48 && unit <= 57 ? NUMBER : isWordUnit(unit) ? WORD : NONE;
}
const classOfPoint = (point: number) => {
  const text = String.fromCodePoint(point);
  return /\p{N}/u.test(text) ? NUMBER : /[\p{L}\p{M}_]/u.test(text) ? WORD : NONE;
};

/** The width in UTF-16 units of the code point classAt() last looked at: 2 for a surrogate pair. */
let pointWidth = 1;

/** The class of the code point at value[i] (0 past the end), its width in pointWidth. */
function classAt(value: string, i: number): number {
  pointWidth = 1;
  if (i >= value.length) return 0;
  const unit = value.charCodeAt(i);
  if (unit < 0xd800 || unit > 0xdbff) return (BMP_CLASSES[unit] ||= classOfPoint(unit));
  const low = value.charCodeAt(i + 1);
  if (!(low >= 0xdc00 && low <= 0xdfff)) return (BMP_CLASSES[unit] ||= classOfPoint(unit));
  pointWidth = 2;
  return classOfPoint(value.codePointAt(i)!);
}

/** ' . : · ’ join word units; , ; join numbers. */
const isJoiner = (unit: number) =>
  unit === 39 || unit === 46 || unit === 58 || unit === 0xb7 || unit === 0x2019;
const isNumberJoiner = (unit: number) => unit === 44 || unit === 59;

function addWord(count: number, start: number, end: number, letters: number): void {
  SERVED_WORDS.starts[count] = start;
  SERVED_WORDS.ends[count] = end;
  SERVED_WORDS.plainLetters[count] = letters;
}

/**
 * Cuts `value` into SERVED_WORDS; how many words. The tokenizer's pattern (STANDARD_TOKEN) by hand: runs of word
 * units, joined by ' ’ . : · before a word unit and by , ; between numbers; no string made.
 */
export function cutServedValue(value: string): number {
  let count = 0;
  const length = value.length;
  let i = 0;
  while (i < length && count < MAX_VALUE_WORDS) {
    let kind = classAt(value, i);
    if (kind === NONE) {
      i += pointWidth;
      continue;
    }
    const start = i;
    let joined = false;
    for (;;) {
      let last = kind;
      while (kind >= WORD) {
        last = kind;
        i += pointWidth;
        kind = classAt(value, i);
      }
      if (i + 1 >= length) break;
      const separator = value.charCodeAt(i);
      const next = classAt(value, i + 1);
      const joins =
        (isJoiner(separator) && next >= WORD) ||
        (isNumberJoiner(separator) && last === NUMBER && next === NUMBER);
      if (!joins) break;
      joined = true;
      i++;
      kind = next;
    }
    addWord(count++, start, i, joined ? -1 : plainLetterBits(value, start, i));
  }
  return count;
}
