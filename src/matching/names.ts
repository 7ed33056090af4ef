// Whether a word of `q` names a word of a served value, by the typo table (typoRules.ts): equal, within the typos
// allowed, or (the word being typed) the start of it, also with one typo.
import { withinTypos, startsWithOneTypo } from './editDistance.js';
import { bitCount, type Form } from './form.js';
import { allowedTypos, PREFIX_TYPO_MIN_LETTERS, type TypoRules } from './typoRules.js';

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
  const typos = allowedTypos(typed.letters, target.letters, mode);
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
    typed.letters >= PREFIX_TYPO_MIN_LETTERS &&
    a.codePointAt(0) === b.codePointAt(0) &&
    startsWithOneTypo(typed, target)
  );
}
