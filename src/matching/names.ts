// Whether a word of `q` names a word of a served value, by the typo table (typoRules.ts): equal, within the typos
// allowed, or (the word being typed) the start of it, also with one typo.
import { withinTypos, startsWithTypos, type DistanceRows } from './editDistance.js';
import { bitCount, MAX_UNITS_PER_LETTER, type Form } from './form.js';
import { allowedTypos, MAX_TYPOS, ONE_TYPO, PREFIX_TYPO_MIN_LETTERS, type TypoRules } from './typoRules.js';

/**
 * Words further apart than this in UTF-16 units cannot name each other: at most MAX_TYPOS typos, each changing
 * the length by at most one letter's units.
 */
export const MAX_UNITS_APART = MAX_TYPOS * MAX_UNITS_PER_LETTER;

/**
 * Whether `typed` names `target`: equal, within the typos allowed, or (the word being typed) its start. `rows`:
 * the answer's working rows for the distance (editDistance.ts).
 */
export function names(
  typed: Form,
  target: Form,
  last: boolean,
  mode: TypoRules,
  rows: DistanceRows,
): boolean {
  const a = typed.text;
  const b = target.text;
  if (a === '' || b === '') return false;
  if (a === b) return true;
  if (last && b.startsWith(a)) return true;
  // Lengths further apart cannot name each other, except a word being typed, which may be the start of a longer one.
  if (Math.abs(a.length - b.length) > MAX_UNITS_APART && !(last && b.length > a.length)) return false;
  // Typed letters that the target lacks: each takes an edit, also against any start of the target.
  const missing = bitCount(typed.letterBits & ~target.letterBits);
  const typos = allowedTypos(typed.letters, target.letters, mode);
  if (
    typos > 0 &&
    missing <= typos &&
    Math.abs(typed.letters - target.letters) <= typos &&
    bitCount(target.letterBits & ~typed.letterBits) <= typos &&
    withinTypos(rows, typed, target, typos)
  ) {
    return true;
  }
  // The start of a word with one typo, the first letter as typed (suggest's fuzzy prefixes, FIRST_LETTER_AS_TYPED).
  return (
    last &&
    (mode === 'list' || mode === 'suggest') &&
    missing <= ONE_TYPO &&
    typed.letters >= PREFIX_TYPO_MIN_LETTERS &&
    a.codePointAt(0) === b.codePointAt(0) &&
    startsWithTypos(rows, typed, target, ONE_TYPO)
  );
}
