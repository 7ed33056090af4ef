// The spans of one served value: its words cut at their own offsets (indexContract/text/tokenizer.ts), each word
// marked with the words of `q` that name it, alone, split, or joining it with its neighbours.
import { foldText } from '../../../indexContract/text/fold.js';
import { cutWords, newWordCuts, type WordCuts } from '../../../indexContract/text/tokenizer.js';
import { DistanceRows } from '../editDistance.js';
import type { HighlightTextField, Span } from './itemHighlights.js';
import { joiningThree, joiningWords, namingWords } from './naming.js';
import { plainLetterBits } from './plainWord.js';
import { mayName } from './prefilter.js';
import type { QueryPlan } from './queryPlan.js';
import { ServedWordForms, type WordForms } from './servedWordForms.js';

/** Words of a value looked at: the served fields are bounded (record.md), this only keeps a page's cost bounded. */
const MAX_VALUE_WORDS = 256;

/**
 * One answer's working space, reused value after value (an answer is presented synchronously, one value at a
 * time), and what the last value gave.
 */
export interface ValueScratch {
  /** The served words' forms, kept across answers (the app's). */
  wordForms: ServedWordForms;
  /** The words of the value being looked at. */
  cuts: WordCuts;
  /** Per word: a plain word's letters as Form.letterBits (plainWord.ts), -1 for any other word. */
  plainLetters: number[];
  /** Per word: its forms, once looked up (undefined until then). */
  forms: (WordForms | undefined)[];
  /** Per word: the bits of the words of `q` that name it (0: unmarked). */
  bits: number[];
  /** Per word: the last word of a phrase of `q` that starts there, else -1. */
  phraseEnds: number[];
  /** The words of `q` that named any word of the last value looked at. */
  matched: number;
  /** The rows of the distance table the comparisons run on (editDistance.ts). */
  rows: DistanceRows;
}

/** A working space; `wordForms` the app's (a fresh one, kept for this answer alone, when none is given). */
export const newValueScratch = (wordForms: ServedWordForms = new ServedWordForms()): ValueScratch => ({
  wordForms,
  cuts: newWordCuts(),
  plainLetters: [],
  forms: [],
  bits: [],
  phraseEnds: [],
  matched: 0,
  rows: new DistanceRows(),
});

/** The forms of the k-th word of `value`, looked up once. */
function formsAt(scratch: ValueScratch, value: string, k: number): WordForms {
  return (scratch.forms[k] ??= scratch.wordForms.formsOf(
    value.slice(scratch.cuts.starts[k], scratch.cuts.ends[k]),
  ));
}

/** The k-th word's length and first unit, lowercased (a plain word's: ASCII letters and digits). */
const lengthAt = ({ cuts }: ValueScratch, k: number) => cuts.ends[k]! - cuts.starts[k]!;
const firstUnitAt = ({ cuts }: ValueScratch, value: string, k: number) =>
  value.charCodeAt(cuts.starts[k]!) | 32;

/** Whether a word of `q` may name the k-th word, a plain one (namingWords' comparisons, on numbers only). */
function mayBeNamed(plan: QueryPlan, scratch: ValueScratch, value: string, k: number): boolean {
  return mayName(plan.typed, lengthAt(scratch, k), scratch.plainLetters[k]!, firstUnitAt(scratch, value, k));
}

/** Whether a word of `q` may join the k-th and next words, both plain (joiningWords' comparisons, on numbers). */
function mayBeJoined(plan: QueryPlan, scratch: ValueScratch, value: string, k: number): boolean {
  const first = lengthAt(scratch, k);
  const second = lengthAt(scratch, k + 1);
  // Far longer than either word (minLetters): not one of them with a typo.
  return mayName(
    plan.joining,
    first + second,
    scratch.plainLetters[k]! | scratch.plainLetters[k + 1]!,
    firstUnitAt(scratch, value, k),
    Math.max(first, second),
  );
}

/** The spans of one value (undefined: none); the words of `q` it named in scratch.matched. */
export function valueSpans(
  plan: QueryPlan,
  scratch: ValueScratch,
  value: string,
  field: HighlightTextField,
): Span[] | undefined {
  // A pasted name (a `q` with operators that is the whole name) is one span of it, every word of `q`.
  if (field === 'project_name' && plan.pastedNames.length > 0 && plan.pastedNames.includes(foldText(value))) {
    scratch.matched = plan.all;
    return [[0, value.length]];
  }
  const { cuts, plainLetters, bits: wordBits } = scratch;
  const count = cutWords(value, cuts, MAX_VALUE_WORDS);
  for (let k = 0; k < count; k++) {
    scratch.forms[k] = undefined;
    plainLetters[k] = plainLetterBits(value, cuts.starts[k]!, cuts.ends[k]!);
  }
  let matched = 0;
  for (let k = 0; k < count; k++) {
    const bits =
      plainLetters[k]! >= 0 && !mayBeNamed(plan, scratch, value, k)
        ? 0
        : namingWords(plan, formsAt(scratch, value, k), scratch.rows);
    wordBits[k] = bits;
    matched |= bits;
  }
  if (plan.joins) matched |= joinedWords(plan, scratch, value, count);
  // The reference code as typed or pasted (case aside) is the whole value, every word of `q`.
  if (field === 'reference_code' && plan.whole === value.toLowerCase()) {
    scratch.matched = plan.all;
    return [[0, value.length]];
  }
  scratch.matched = matched;
  const phrases = plan.phrases.length > 0 && phraseEnds(plan, field, scratch, value, count);
  if (matched === 0 && !phrases) return undefined;
  // Words never touch (the tokenizer takes the longest run), so each marked word is a span of its own, in order;
  // a phrase is one span from its first word to its last.
  const spans: Span[] = [];
  for (let k = 0; k < count; k++) {
    const phraseEnd = phrases ? scratch.phraseEnds[k]! : -1;
    if (phraseEnd >= 0) {
      spans.push([cuts.starts[k]!, cuts.ends[phraseEnd]!]);
      k = phraseEnd;
    } else if (wordBits[k] !== 0) spans.push([cuts.starts[k]!, cuts.ends[k]!]);
  }
  return spans;
}

/**
 * Marks the words of the value that words of `q` join, two or three at a time ("kafuegorge"); the words of `q`
 * that joined any.
 */
function joinedWords(plan: QueryPlan, scratch: ValueScratch, value: string, count: number): number {
  const { plainLetters, bits: wordBits, rows } = scratch;
  let matched = 0;
  for (let k = 0; k + 1 < count; k++) {
    const plainPair = plainLetters[k]! >= 0 && plainLetters[k + 1]! >= 0;
    const bits =
      plainPair && !mayBeJoined(plan, scratch, value, k)
        ? 0
        : joiningWords(plan, formsAt(scratch, value, k), formsAt(scratch, value, k + 1), rows);
    if (bits !== 0) {
      wordBits[k]! |= bits;
      wordBits[k + 1]! |= bits;
      matched |= bits;
    }
    if (k + 2 < count) {
      // Three plain words written as one are as long as the three: no joining form that long, no join.
      const threeLength = lengthAt(scratch, k) + lengthAt(scratch, k + 1) + lengthAt(scratch, k + 2);
      const plainThree = plainPair && plainLetters[k + 2]! >= 0 && !plan.joiningLengths.includes(threeLength);
      const three = plainThree
        ? 0
        : joiningThree(
            plan,
            formsAt(scratch, value, k),
            formsAt(scratch, value, k + 1),
            formsAt(scratch, value, k + 2),
          );
      if (three !== 0) {
        wordBits[k]! |= three;
        wordBits[k + 1]! |= three;
        wordBits[k + 2]! |= three;
        matched |= three;
      }
    }
  }
  return matched;
}

/**
 * Where the phrases of `q` looked for in this field stand in the value: scratch.phraseEnds[k] is the last word of
 * a phrase that starts at word k, else -1 (the first match from the left wins where two would overlap). Whether
 * any does.
 */
function phraseEnds(
  plan: QueryPlan,
  field: HighlightTextField,
  scratch: ValueScratch,
  value: string,
  count: number,
): boolean {
  const ends = scratch.phraseEnds;
  for (let k = 0; k < count; k++) ends[k] = -1;
  let found = false;
  for (const phrase of plan.phrases) {
    if (phrase.only !== undefined && phrase.only !== field) continue;
    const length = phrase.written.length;
    for (let k = 0; k + length <= count; k++) {
      let all = true;
      for (let i = 0; i < length && all; i++) {
        all = formsAt(scratch, value, k + i).written.text === phrase.written[i];
      }
      if (all) {
        ends[k] = Math.max(ends[k]!, k + length - 1);
        found = true;
      }
    }
  }
  // A phrase inside another's span is the other's.
  for (let k = 0, reach = -1; k < count; k++) {
    if (k <= reach) ends[k] = -1;
    else if (ends[k]! >= 0) reach = ends[k]!;
  }
  return found;
}
