// A word in one of its forms, with what the comparisons need of it taken once: a highlighted page compares every
// typed form with every word of every searched field of every item, so lengths and letter buckets rule most
// pairs out before any distance is run (names.ts).

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

/**
 * Set bits of a 32-bit number, counted in parallel (the SWAR popcount): the plain loop over the set bits made a
 * highlighted page measurably dearer (`npm run bench -- highlights`; docs/performance.md).
 */
export function bitCount(bits: number): number {
  let count = bits - ((bits >>> 1) & 0x55555555);
  count = (count & 0x33333333) + ((count >>> 2) & 0x33333333);
  return (((count + (count >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** How many of the letters of `typed` are in no bucket of `letterBits` (each takes an edit). */
export function missingLetters(typed: Form, letterBits: number): number {
  return bitCount(typed.letterBits & ~letterBits);
}
