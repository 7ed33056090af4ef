// Which words of `q` name a word of a served value: each alone by any of its forms, 2–3 of them split ("hydro
// electric" for "hydroelectric"), or one of them joining two or three adjacent served words ("kafuegorge").
import type { DistanceRows } from '../editDistance.js';
import { missingLetters, formOf, type Form } from '../form.js';
import { MAX_UNITS_APART, names } from '../names.js';
import { allowedTypos, MAX_TYPOS } from '../typoRules.js';
import type { QueryPlan } from './queryPlan.js';
import type { WordForms } from './servedWordForms.js';

/**
 * The words of `q` that name a served word: each alone by any of its forms, or 2–3 of them split (bits);
 * remembered for the plan's answer.
 */
export function namingWords(plan: QueryPlan, word: WordForms, rows: DistanceRows): number {
  let bits = plan.named.get(word);
  if (bits === undefined) {
    bits = aloneOrSplit(plan, word, rows);
    plan.named.set(word, bits);
  }
  return bits;
}

/** namingWords, worked out. */
function aloneOrSplit(plan: QueryPlan, word: WordForms, rows: DistanceRows): number {
  const { words, rules } = plan;
  let bits = 0;
  for (let index = 0; index < words.length; index++) {
    if ((plan.allowed & (1 << index)) === 0) continue;
    const last = words[index]!.last;
    if (plan.writtenOnly) {
      for (const typed of words[index]!.written) {
        if (names(typed, word.written, last, rules, rows)) {
          bits |= 1 << index;
          break;
        }
      }
      continue;
    }
    // Canonical words of an abbreviation ("HPP" → hydro power plant) each name the word they stand for.
    search: for (const typed of words[index]!.forms) {
      for (const target of word.targets) {
        if (names(typed, target, last, rules, rows)) {
          bits |= 1 << index;
          break search;
        }
      }
    }
  }
  for (const split of plan.splits) {
    if (
      (bits & split.bits) !== split.bits &&
      (names(split.compact, word.compact, split.last, rules, rows) ||
        (word.written !== word.compact && names(split.compact, word.written, split.last, rules, rows)))
    ) {
      bits |= split.bits;
    }
  }
  return bits;
}

/** Whether `text` is `first` followed by `second`, without building the pair. */
const isPair = (text: string, first: string, second: string) =>
  text.length === first.length + second.length && text.startsWith(first) && text.endsWith(second);

/**
 * The words of `q` that join two adjacent served words ("kafuegorge"): as typed, with the typos allowed or (the
 * word being typed) past the first word's end, and far longer than either word (not one of them with a typo).
 */
export function joiningWords(
  plan: QueryPlan,
  first: WordForms,
  second: WordForms,
  rows: DistanceRows,
): number {
  const { words, rules } = plan;
  const compactLength = first.compact.text.length + second.compact.text.length;
  const writtenLength = first.written.text.length + second.written.text.length;
  const longestPart = Math.max(first.compact.letters, second.compact.letters);
  let compactPair: Form | undefined;
  let writtenPair: Form | undefined;
  let bits = 0;
  for (let index = 0; index < words.length; index++) {
    if ((plan.allowed & (1 << index)) === 0) continue;
    const last = words[index]!.last;
    for (const form of words[index]!.joining) {
      const length = form.text.length;
      if (
        (length === compactLength && isPair(form.text, first.compact.text, second.compact.text)) ||
        (length === writtenLength && isPair(form.text, first.written.text, second.written.text))
      ) {
        bits |= 1 << index;
        break;
      }
      // What a join with typos needs, told without building the pair (most pairs are ruled out here): longer than
      // either word; at most MAX_TYPOS of its letters missing from the pair (each an edit); a length within
      // MAX_TYPOS (MAX_UNITS_APART) of the pair's, or (the word being typed) the pair longer.
      if (form.letters <= longestPart) continue;
      if (
        missingLetters(form, first.compact.letterBits | second.compact.letterBits) > MAX_TYPOS &&
        missingLetters(form, first.written.letterBits | second.written.letterBits) > MAX_TYPOS
      ) {
        continue;
      }
      if (
        !last &&
        Math.abs(length - compactLength) > MAX_UNITS_APART &&
        Math.abs(length - writtenLength) > MAX_UNITS_APART
      ) {
        continue;
      }
      compactPair ??= formOf(first.compact.text + second.compact.text);
      if (form.letters <= longestPart + allowedTypos(form.letters, compactPair.letters, rules)) continue;
      writtenPair ??=
        first.written === first.compact && second.written === second.compact
          ? compactPair
          : formOf(first.written.text + second.written.text);
      if (
        names(form, compactPair, last, rules, rows) ||
        (writtenPair.text !== compactPair.text && names(form, writtenPair, last, rules, rows))
      ) {
        bits |= 1 << index;
        break;
      }
    }
  }
  return bits;
}

/** The words of `q` that, as typed, are three adjacent served words written as one. */
export function joiningThree(plan: QueryPlan, a: WordForms, b: WordForms, c: WordForms): number {
  const lengths = plan.joiningLengths;
  if (
    !lengths.includes(a.compact.text.length + b.compact.text.length + c.compact.text.length) &&
    !lengths.includes(a.written.text.length + b.written.text.length + c.written.text.length)
  ) {
    return 0;
  }
  let bits = 0;
  for (let index = 0; index < plan.words.length; index++) {
    if ((plan.allowed & (1 << index)) === 0) continue;
    for (const form of plan.words[index]!.joining) {
      const text = form.text;
      for (const [x, y, z] of [
        [a.compact.text, b.compact.text, c.compact.text],
        [a.written.text, b.written.text, c.written.text],
      ] as const) {
        if (
          text.length === x.length + y.length + z.length &&
          text.startsWith(x) &&
          text.startsWith(y, x.length) &&
          text.endsWith(z)
        ) {
          bits |= 1 << index;
        }
      }
    }
  }
  return bits;
}
