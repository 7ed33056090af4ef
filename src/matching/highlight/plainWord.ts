// A plain word of a served value: ASCII letters and digits that canonical.ts writes no other way (no numeral, no
// abbreviation). It is its own only form, lowercased, so its length and letters, read off the value in place, rule
// out most comparisons before its forms are looked up (servedWordForms.ts lookups were most of the presenter's
// time in the API, each a miss in the processor's caches).
import { ROMAN_NUMERALS, SECTOR_ABBREVIATIONS } from '../../../indexContract/text/canonical.js';
import { isAsciiWordUnit } from '../../../indexContract/text/tokenizer.js';

/** The words canonical.ts writes another way (numerals, abbreviations, lowercase): not plain words. */
const OTHER_FORMS = [...new Set([...Object.keys(ROMAN_NUMERALS), ...Object.keys(SECTOR_ABBREVIATIONS)])];
/** Those words are this long at most: a longer word is not one of them. */
const OTHER_FORMS_MAX_LENGTH = Math.max(...OTHER_FORMS.map((word) => word.length));

/** Words by length and first letter (length × 128 + unit): a word is compared with a handful at most. */
function byLengthAndStart(words: readonly string[]): readonly (readonly string[] | undefined)[] {
  const table: string[][] = [];
  for (const word of words) (table[word.length * 128 + word.charCodeAt(0)] ??= []).push(word);
  return table;
}
const OTHER_FORMS_BY_START = byLengthAndStart(OTHER_FORMS);

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

/** The letters of value[start, end) as Form.letterBits (form.ts) when it is a plain word, else -1. */
export function plainLetterBits(value: string, start: number, end: number): number {
  let bits = 0;
  let letters = false;
  for (let i = start; i < end; i++) {
    const unit = value.charCodeAt(i);
    if (!isAsciiWordUnit(unit) || unit === 95) return -1;
    if (unit >= 65) letters = true;
    // A letter's bucket is the same in either case (unit & 31): no lowercasing needed.
    bits |= 1 << (unit & 31);
  }
  // Digits alone are no numeral (only roman ones are written another way).
  if (letters && end - start <= OTHER_FORMS_MAX_LENGTH && isOtherForm(value, start, end)) return -1;
  return bits;
}
