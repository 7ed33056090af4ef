// The one tokenizer: words as Elasticsearch's standard tokenizer (Unicode word boundaries) cuts them, closely
// enough for names. Letters, digits and marks (and _), joined across an inner apostrophe, period, colon or middle
// dot ("ma’an", "o'neill", "p.e") and across a comma or semicolon between digits ("1,000.5"). The indexer cuts
// the names with it (standardTokens), the suggest query cuts what was typed with it, and the highlighter cuts the
// served values with it at their own offsets (cutWords): one set of rules, cut by hand rather than by a pattern
// with a lookbehind, which the highlighter measured dearer (the figure: docs/performance.md, "Highlights").
//
// Where a word is looked up part by part (the technology's words, the country's names, the dropped-letter
// spellings: "d'ivoire" as d and ivoire), its parts are those of its tokens (tokenParts): the same cut, taken
// apart again at the punctuation it joined across.
import { foldText } from './fold.js';

/** Where the words of a text are: [starts[k], ends[k]) in UTF-16 units, for k below cutWords()'s count. */
export interface WordCuts {
  starts: number[];
  ends: number[];
}

export const newWordCuts = (): WordCuts => ({ starts: [], ends: [] });

// What a code point is to the tokenizer: no word unit, a word unit ([\p{L}\p{M}_]), or a number (\p{N}, also a
// word unit). Past ASCII each BMP unit is asked of the Unicode classes once and kept (a text's letters recur).
const NONE = 1;
const WORD = 2;
const NUMBER = 3;
const BMP_CLASSES = new Uint8Array(0x10000);
/** ASCII letters, digits and _. */
export const isAsciiWordUnit = (unit: number): boolean =>
  (unit >= 97 && unit <= 122) || (unit >= 65 && unit <= 90) || (unit >= 48 && unit <= 57) || unit === 95;
for (let unit = 0; unit < 128; unit++) {
  BMP_CLASSES[unit] = unit >= 48 && unit <= 57 ? NUMBER : isAsciiWordUnit(unit) ? WORD : NONE;
}
const classOfPoint = (point: number) => {
  const text = String.fromCodePoint(point);
  return /\p{N}/u.test(text) ? NUMBER : /[\p{L}\p{M}_]/u.test(text) ? WORD : NONE;
};

/** The class of the code point at text[i] (0 past the end), times 4, plus its width in UTF-16 units (1 or 2). */
function classAt(text: string, i: number): number {
  if (i >= text.length) return 0;
  const unit = text.charCodeAt(i);
  if (unit < 0xd800 || unit > 0xdbff) return (BMP_CLASSES[unit] ||= classOfPoint(unit)) * 4 + 1;
  const low = text.charCodeAt(i + 1);
  if (!(low >= 0xdc00 && low <= 0xdfff)) return (BMP_CLASSES[unit] ||= classOfPoint(unit)) * 4 + 1;
  return classOfPoint(text.codePointAt(i)!) * 4 + 2;
}

/** ' . : · ’ join word units; , ; join numbers. */
const isJoiner = (unit: number) =>
  unit === 39 || unit === 46 || unit === 58 || unit === 0xb7 || unit === 0x2019;
const isNumberJoiner = (unit: number) => unit === 44 || unit === 59;

/**
 * Cuts `text` into `cuts`, at most `maxWords` words; how many. Runs of word units, joined by ' ’ . : · before a
 * word unit and by , ; between numbers; no string made.
 */
export function cutWords(text: string, cuts: WordCuts, maxWords = Infinity): number {
  let count = 0;
  const length = text.length;
  let i = 0;
  while (i < length && count < maxWords) {
    let point = classAt(text, i);
    if (point >> 2 === NONE) {
      i += point & 3;
      continue;
    }
    const start = i;
    for (;;) {
      let last = point >> 2;
      while (point >> 2 >= WORD) {
        last = point >> 2;
        i += point & 3;
        point = classAt(text, i);
      }
      if (i + 1 >= length) break;
      const separator = text.charCodeAt(i);
      const next = classAt(text, i + 1) >> 2;
      const joins =
        (isJoiner(separator) && next >= WORD) ||
        (isNumberJoiner(separator) && last === NUMBER && next === NUMBER);
      if (!joins) break;
      i++;
      point = classAt(text, i);
    }
    cuts.starts[count] = start;
    cuts.ends[count] = i;
    count++;
  }
  return count;
}

/** The words of a (folded) text, as strings. */
export function standardTokens(text: string): string[] {
  const cuts = newWordCuts();
  const count = cutWords(text, cuts);
  const tokens = new Array<string>(count);
  for (let k = 0; k < count; k++) tokens[k] = text.slice(cuts.starts[k], cuts.ends[k]);
  return tokens;
}

/** What the tokenizer joins across, and the marks and _ it keeps inside a word: where a token falls into parts. */
const BETWEEN_PARTS = /[^\p{L}\p{N}]+/u;

/** The parts of tokens: their runs of letters and digits ("o'neill" → o, neill; "1,000" → 1, 000), in order. */
export function tokenParts(tokens: readonly string[]): string[] {
  const parts: string[] = [];
  for (const token of tokens) {
    for (const part of token.split(BETWEEN_PARTS)) if (part !== '') parts.push(part);
  }
  return parts;
}

/** The folded words of a text, its tokens taken apart (tokenParts): "Côte d'Ivoire" → cote, d, ivoire. */
export function foldedWords(text: string): string[] {
  return tokenParts(standardTokens(foldText(text)));
}
