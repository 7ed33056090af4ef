// A served value cut into words as Elasticsearch's standard tokenizer cuts them (indexContract/text/prefixes.ts
// STANDARD_TOKEN), on the served text so that the offsets are the served value's, for highlights (highlights.ts).
// Most values are ASCII: they are cut by hand, and a plain word's letters are read off the value on the way (a
// plain word, ASCII letters and digits that canonical.ts writes no other way, is its own only form, lowercased).
import { ROMAN_NUMERALS, SECTOR_ABBREVIATIONS } from '../../indexContract/text/canonical.js';

const SERVED_TOKEN = /[\p{L}\p{N}\p{M}_]+(?:(?:['’.:·]|(?<=\p{N})[,;](?=\p{N}))[\p{L}\p{N}\p{M}_]+)*/gu;
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

/** Whether value[start, end), ASCII, is one of OTHER_FORMS, case aside (compared in place: no string made). */
function isOtherForm(value: string, start: number, end: number): boolean {
  const length = end - start;
  search: for (const word of OTHER_FORMS) {
    if (word.length !== length) continue;
    for (let i = 0; i < length; i++) {
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
const isDigit = (unit: number) => unit >= 48 && unit <= 57;

/** The letters of value[start, end) as Form.letterBits when it is a plain word, else -1. */
function plainLetterBits(value: string, start: number, end: number): number {
  let bits = 0;
  let letters = false;
  for (let i = start; i < end; i++) {
    const unit = value.charCodeAt(i);
    // A letter's bucket is the same in either case (unit & 31): no lowercasing needed.
    if (unit === 95 || unit >= 128) return -1;
    if (unit >= 65) letters = true;
    bits |= 1 << (unit & 31);
  }
  // Digits alone are no numeral (only roman ones are written another way).
  if (letters && end - start <= OTHER_FORMS_MAX_LENGTH && isOtherForm(value, start, end)) return -1;
  return bits;
}

function addWord(count: number, start: number, end: number, letters: number): void {
  SERVED_WORDS.starts[count] = start;
  SERVED_WORDS.ends[count] = end;
  SERVED_WORDS.plainLetters[count] = letters;
}

/**
 * ASCII_SERVED_TOKEN by hand (most values are ASCII, and this is the presenter's inner loop): runs of word units,
 * joined by ' . : between word units and , ; between digits. -1 at the first unit past ASCII (SERVED_TOKEN then).
 */
function cutAsciiValue(value: string): number {
  let count = 0;
  const length = value.length;
  let i = 0;
  while (i < length) {
    const unit = value.charCodeAt(i);
    if (unit >= 128) return -1;
    if (!isWordUnit(unit)) {
      i++;
      continue;
    }
    const start = i;
    let joined = false;
    for (;;) {
      while (i < length && isWordUnit(value.charCodeAt(i))) i++;
      if (i + 1 >= length) break;
      const separator = value.charCodeAt(i);
      const next = value.charCodeAt(i + 1);
      const joins =
        ((separator === 39 || separator === 46 || separator === 58) && isWordUnit(next)) ||
        ((separator === 44 || separator === 59) && isDigit(value.charCodeAt(i - 1)) && isDigit(next));
      if (!joins) break;
      joined = true;
      i++;
    }
    if (count === MAX_VALUE_WORDS) return count;
    addWord(count++, start, i, joined ? -1 : plainLetterBits(value, start, i));
  }
  return count;
}

/** Cuts `value` into SERVED_WORDS; how many words. */
export function cutServedValue(value: string): number {
  const ascii = cutAsciiValue(value);
  if (ascii >= 0) return ascii;
  let count = 0;
  for (const match of value.matchAll(SERVED_TOKEN)) {
    if (count === MAX_VALUE_WORDS) break;
    addWord(count++, match.index, match.index + match[0].length, -1);
  }
  return count;
}
