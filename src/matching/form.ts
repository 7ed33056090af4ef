// A word in one of its forms, with what the comparisons need of it taken once: a highlighted page compares every
// typed form with every word of every searched field of every item, so lengths and letter buckets rule most
// pairs out before any distance is run (names.ts).

/** A word in one of its forms, with what the comparisons need of it. */
export interface Form {
  readonly text: string;
  /** Code points (letters): what the typo rules count. */
  readonly letters: number;
  /** Holds a letter outside the BMP (a UTF-16 pair): compared by code point, not by unit. */
  readonly astral: boolean;
  /**
   * Which letters it holds, each as bit (code unit mod 32): a letter of one word in no bucket of the other takes
   * an edit, so words whose buckets differ by more than the typos allowed are told apart without a distance.
   */
  readonly letterBits: number;
}

/** A letter takes one UTF-16 unit or (outside the BMP) two: what a typo may change a word's length by, in units. */
export const MAX_UNITS_PER_LETTER = 2;

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

/** Set bits of a 32-bit number (a letter bucket each), counted one by one: a word has a handful. */
export function bitCount(bits: number): number {
  let count = 0;
  for (let rest = bits | 0; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/** Whether at most `most` bits of `bits` are set: counted only that far (a vocabulary scan asks it of every word). */
export function atMostBits(bits: number, most: number): boolean {
  let rest = bits | 0;
  for (let count = 0; count < most && rest !== 0; count++) rest &= rest - 1;
  return rest === 0;
}

/** How many of the letters of `typed` are in no bucket of `letterBits` (each takes an edit). */
export function missingLetters(typed: Form, letterBits: number): number {
  return bitCount(typed.letterBits & ~letterBits);
}
