// The plain-word prefilter: whether a form of `q` may name a plain served word (plainWord.ts), told on numbers
// before the word's forms are looked up. It runs for every plain word of every value of an answer and rules most
// of them out; what it lets through, names() (../names.ts) decides.
import { bitCount, type Form } from '../form.js';
import { allowedTypos, ONE_TYPO, type TypoRules } from '../typoRules.js';

/** What the prefilter needs of one form of `q`, taken once per answer. */
export interface PrefilterForm {
  readonly letters: number;
  readonly letterBits: number;
  /** Its first UTF-16 unit (folded: lowercase). */
  readonly firstUnit: number;
  /** The word being typed: it may be the start of a longer word. */
  readonly last: boolean;
  /** The typos it may carry against a longer word, and against any other (typoRules.ts). */
  readonly typosAgainstLonger: number;
  readonly typosAgainstOther: number;
}

/** The forms of `q` a prefilter tries, in order. */
export type Prefilter = readonly PrefilterForm[];

export function prefilterForm(form: Form, last: boolean, rules: TypoRules): PrefilterForm {
  return {
    letters: form.letters,
    letterBits: form.letterBits,
    firstUnit: form.text.charCodeAt(0),
    last,
    typosAgainstLonger: allowedTypos(form.letters, form.letters + 1, rules),
    typosAgainstOther: allowedTypos(form.letters, form.letters, rules),
  };
}

/**
 * Whether a form of the prefilter may name a plain word of `letters` letters, these letter buckets and this first
 * unit (lowercased), among the forms longer than `minLetters`: names()'s tests, on numbers only. Equal or within
 * the typos allowed: as many letters, give or take the typos, and at most that many letters of either missing
 * from the other. The word being typed, the start of the word with at most one typo: as long less one or longer,
 * its first letter, at most one letter missing.
 */
export function mayName(
  prefilter: Prefilter,
  letters: number,
  bits: number,
  firstUnit: number,
  minLetters = 0,
): boolean {
  for (const typed of prefilter) {
    if (typed.letters <= minLetters) continue;
    const apart = typed.letters - letters;
    const typos = apart < 0 ? typed.typosAgainstLonger : typed.typosAgainstOther;
    const missing = bitCount(typed.letterBits & ~bits);
    if (
      apart <= typos &&
      -apart <= typos &&
      missing <= typos &&
      bitCount(bits & ~typed.letterBits) <= typos
    ) {
      return true;
    }
    if (typed.last && apart <= ONE_TYPO && missing <= ONE_TYPO && typed.firstUnit === firstUnit) return true;
  }
  return false;
}
