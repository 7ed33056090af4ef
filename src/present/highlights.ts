// Highlights (issue 46): why a result matched `q`, as [start, end) spans of the served values in UTF-16 code
// units (what String.prototype.slice takes), or `technology: true` / `country_code: true` when a word of `q` named
// the PPA's technology or country rather than a word of its text.
//
// Recomputed here rather than asked of Elasticsearch's highlighter: the index holds folded and expanded forms of the
// names (name_folded, name_canonical, name_compact, name_joined, the dropped-letter spellings…), so the offsets
// Elasticsearch would give point into those forms, not into the served text ("photovoltaic" in name_canonical for
// "PV" in the name, "kafuegorge" in name_joined for two words). Recomputing with the same canonical forms
// (indexContract/text/) on the served values is exact, pure, and costs Elasticsearch nothing; it runs only when
// highlight=true is asked.
import { canonicalOfTokens, technologyWords, writtenOfTokens } from '../../indexContract/text/canonical.js';
import { countryNameWords } from '../../indexContract/text/countryNames.js';
import { foldText } from '../../indexContract/text/fold.js';
import { foldedWords, standardTokens } from '../../indexContract/text/prefixes.js';
import { Type } from './bodySchema.js';

/** A span of a served value: [start, end) in UTF-16 code units. */
export type Span = [number, number];

export const HIGHLIGHT_TEXT_FIELDS = ['project_name', 'developer', 'location', 'reference_code'] as const;
export type HighlightTextField = (typeof HIGHLIGHT_TEXT_FIELDS)[number];

export type Highlights = Partial<Record<HighlightTextField, Span[]>> & {
  technology?: true;
  country_code?: true;
};

/** The values highlights are computed on (the served ones). */
export interface HighlightSource {
  project_name?: string | null;
  developer?: string | null;
  location?: string | null;
  reference_code?: string | null;
  technology?: string | null;
  country_code?: string | null;
}

/**
 * What was searched: the list's `q` searches the four text fields and the descriptors (technology, country), one
 * typo from five letters (two from eight); suggest searches the project name only, one typo from five letters.
 */
export type HighlightMode = 'list' | 'suggest';

/** A word of a served value as the standard tokenizer cuts it, with its UTF-16 offsets in the served value. */
interface ValueWord {
  start: number;
  end: number;
  /** Folded, inner punctuation dropped ("P.E." → pe). */
  written: string;
  /** Canonical words (numerals as digits, abbreviations written out). */
  canonical: string[];
  /** The canonical words joined. */
  compact: string;
  /** Every form a typed word may name: written, compact, each canonical word (no repeats). */
  targets: string[];
}

/** A word of `q`, its forms. */
interface QueryWord {
  tokens: string[];
  written: string[];
  canonical: string[];
  compact: string;
  writtenCompact: string;
  /** Every form it is compared by: written, canonical, compact (no repeats). */
  forms: string[];
}

// The standard tokenizer's words (indexContract/text/prefixes.ts STANDARD_TOKEN), on the served text so that the
// offsets are the served value's.
const SERVED_TOKEN = /[\p{L}\p{N}\p{M}_]+(?:(?:['’.:·]|(?<=\p{N})[,;](?=\p{N}))[\p{L}\p{N}\p{M}_]+)*/gu;
const MAX_WORDS = 12;
const MAX_TYPO_LETTERS = 30;

/** Values cut into words, kept across answers (the same PPAs recur); the oldest dropped past the bound. */
const CUT_VALUES = new Map<string, ValueWord[]>();
const MAX_CUT_VALUES = 10_000;

function valueWords(value: string): ValueWord[] {
  const known = CUT_VALUES.get(value);
  if (known) return known;
  const words = cutIntoWords(value);
  if (CUT_VALUES.size >= MAX_CUT_VALUES) CUT_VALUES.delete(CUT_VALUES.keys().next().value!);
  CUT_VALUES.set(value, words);
  return words;
}

function cutIntoWords(value: string): ValueWord[] {
  const words: ValueWord[] = [];
  for (const match of value.matchAll(SERVED_TOKEN)) {
    const tokens = standardTokens(foldText(match[0]));
    const canonical = canonicalOfTokens(tokens);
    const written = writtenOfTokens(tokens).join('');
    const compact = canonical.join('');
    words.push({
      start: match.index,
      end: match.index + match[0].length,
      written,
      canonical,
      compact,
      targets: [...new Set([written, compact, ...canonical])],
    });
  }
  return words;
}

function queryWords(q: string): QueryWord[] {
  return foldText(q.trim())
    .split(/\s+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, MAX_WORDS)
    .map((word) => {
      const tokens = standardTokens(word);
      const written = writtenOfTokens(tokens);
      const canonical = canonicalOfTokens(tokens);
      const compact = canonical.join('');
      const writtenCompact = written.join('');
      const forms = [...new Set([...written, ...canonical, compact, writtenCompact])];
      return { tokens, written, canonical, compact, writtenCompact, forms };
    })
    .filter((word) => word.tokens.length > 0);
}

const codePoints = (text: string): string[] => [...text];
const SURROGATE = /[\uD800-\uDFFF]/;

/** Letters (code points) of a word, without making an array of them. */
function letterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff) count--; // the second half of an astral letter
  }
  return count;
}

/** Optimal-string-alignment distance (a transposition is one edit), or limit + 1 once past `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  // Strings index as their letters unless an astral letter is in one (then its code points are compared).
  const astral = SURROGATE.test(a) || SURROGATE.test(b);
  const x: ArrayLike<string> = astral ? codePoints(a) : a;
  const y: ArrayLike<string> = astral ? codePoints(b) : b;
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        value = Math.min(value, (previous2[j - 2] ?? 0) + 1);
      }
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[y.length] ?? limit + 1;
}

/**
 * The typos a typed word may carry against a word of the value: the list's fuzziness AUTO:5,8 (one from five
 * letters, two from eight), a dropped letter from four typed letters (the dropped-letter and first-letter
 * spellings), two typos in six or seven typed letters against a longer word (textQuery.ts twoTypos); suggest one
 * from five letters (a dropped letter from four).
 */
function allowedTypos(typed: string, target: string, mode: HighlightMode): number {
  const letters = letterCount(typed);
  if (letters > MAX_TYPO_LETTERS) return 0;
  const longer = letterCount(target) > letters;
  if (mode === 'list') {
    if (letters >= 8) return 2;
    if (letters >= 6 && longer) return 2;
    if (letters >= 5) return 1;
  } else if (letters >= 5) return 1;
  return letters >= 4 && longer ? 1 : 0;
}

/** Answers of names() kept across items and answers: the same words recur, and the distance is the cost. */
const NAMED = new Map<string, boolean>();
const MAX_NAMED = 100_000;

/** Whether `typed` names `target`: equal, within the typos allowed, or (the word being typed) its start. */
function names(typed: string, target: string, last: boolean, mode: HighlightMode): boolean {
  if (typed === target) return typed !== '';
  const key = `${mode === 'list' ? 'l' : 's'}${last ? 1 : 0}${typed}\u0000${target}`;
  let named = NAMED.get(key);
  if (named === undefined) {
    named = namesAfresh(typed, target, last, mode);
    if (NAMED.size >= MAX_NAMED) NAMED.clear();
    NAMED.set(key, named);
  }
  return named;
}

function namesAfresh(typed: string, target: string, last: boolean, mode: HighlightMode): boolean {
  if (typed === '' || target === '') return false;
  if (typed === target) return true;
  if (last && target.startsWith(typed)) return true;
  // At most two typos, each changing the length by at most two UTF-16 units (an astral letter): lengths further
  // apart cannot name each other, except a word being typed, which may be the start of a longer one.
  if (Math.abs(typed.length - target.length) > 4 && !(last && target.length > typed.length)) return false;
  const typos = allowedTypos(typed, target, mode);
  if (typos > 0 && editDistance(typed, target, typos) <= typos) return true;
  if (last && letterCount(typed) >= 4) {
    // The start of a word with one typo, the first letter as typed (suggest's fuzzy prefixes, prefix_length 1).
    const letters = codePoints(target);
    const length = letterCount(typed);
    if (typed.codePointAt(0) !== target.codePointAt(0)) return false;
    for (const cut of [length - 1, length, length + 1]) {
      if (cut < 1 || cut > letters.length) continue;
      if (editDistance(typed, letters.slice(0, cut).join(''), 1) <= 1) return true;
    }
  }
  return false;
}

/** Whether a word of `q` names a word of the value, by any of its forms. */
function wordNames(query: QueryWord, word: ValueWord, last: boolean, mode: HighlightMode): boolean {
  // Canonical words of an abbreviation ("HPP" → hydro power plant) each name the word they stand for.
  for (const typed of query.forms)
    for (const target of word.targets) if (names(typed, target, last, mode)) return true;
  return false;
}

/**
 * Runs of adjacent value words that one typed word joins ("kafuegorge"), each word of the run marked: two words
 * as typed, with the typos allowed or (the word being typed) past the first word's end; three only as typed.
 */
function joinedRuns(
  query: QueryWord,
  words: readonly ValueWord[],
  last: boolean,
  mode: HighlightMode,
): Span[] {
  const spans: Span[] = [];
  const typed = [...new Set([query.compact, query.writtenCompact])].filter((form) => letterCount(form) >= 5);
  for (let start = 0; start + 1 < words.length; start++) {
    const first = words[start] as ValueWord;
    const second = words[start + 1] as ValueWord;
    const third = words[start + 2];
    const pairs = [first.compact + second.compact, first.written + second.written];
    const longestPart = Math.max(letterCount(first.compact), letterCount(second.compact));
    for (const form of typed) {
      const letters = letterCount(form);
      // Far longer than either word: not one of them with a typo.
      const joinsTwo =
        pairs.includes(form) ||
        (letters > longestPart + allowedTypos(form, pairs[0] ?? '', mode) &&
          pairs.some((pair) => names(form, pair, last, mode)));
      if (joinsTwo) spans.push([first.start, first.end], [second.start, second.end]);
      if (third && (form === pairs[0] + third.compact || form === pairs[1] + third.written)) {
        spans.push([first.start, first.end], [second.start, second.end], [third.start, third.end]);
      }
    }
  }
  return spans;
}

/** Value words that 2–3 adjacent typed words name together (a split word: "hydro electric"). */
function splitMatches(
  query: readonly QueryWord[],
  words: readonly ValueWord[],
  mode: HighlightMode,
): { spans: Span[]; queryIndexes: Set<number> } {
  const spans: Span[] = [];
  const queryIndexes = new Set<number>();
  for (let start = 0; start < query.length; start++) {
    let compact = '';
    for (let length = 1; length <= 3 && start + length <= query.length; length++) {
      compact += (query[start + length - 1] as QueryWord).compact;
      if (length === 1 || letterCount(compact) < 5) continue;
      const last = start + length === query.length;
      for (const word of words) {
        if (names(compact, word.compact, last, mode) || names(compact, word.written, last, mode)) {
          spans.push([word.start, word.end]);
          for (let index = start; index < start + length; index++) queryIndexes.add(index);
        }
      }
    }
  }
  return { spans, queryIndexes };
}

/** Spans sorted, overlapping or touching ones merged. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Span[] = [];
  for (const [start, end] of sorted) {
    const previous = merged[merged.length - 1];
    if (previous && start <= previous[1]) previous[1] = Math.max(previous[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Whether a typed word names one of the words `vocabulary` holds (the last word also as a prefix). */
function namesAnyOf(query: QueryWord, vocabulary: readonly string[], last: boolean): boolean {
  return query.tokens.some((token) =>
    foldedWords(token).every((typed) =>
      vocabulary.some((word) => word === typed || (last && word.startsWith(typed))),
    ),
  );
}

/**
 * The highlights of one item for `q`: for each text field searched that a word of `q` names, the spans of the
 * words it names; technology/country_code true for a word of `q` that names none of them but names the PPA's
 * technology or country. Fields absent or null in `source` get no spans. Empty object when nothing is named.
 */
export function computeHighlights(
  q: string,
  source: HighlightSource,
  mode: HighlightMode = 'list',
): Highlights {
  return highlighter(q, mode)(source);
}

/** computeHighlights for many items of one answer: `q` is read once. */
export function highlighter(
  q: string,
  mode: HighlightMode = 'list',
): (source: HighlightSource) => Highlights {
  const query = queryWords(q);
  // The reference code is also looked up as typed, case aside (textQuery.ts referenceCode).
  const whole = q.trim().toLowerCase();
  return (source) => highlightsOf(query, whole, source, mode);
}

function highlightsOf(
  query: readonly QueryWord[],
  whole: string,
  source: HighlightSource,
  mode: HighlightMode,
): Highlights {
  const highlights: Highlights = {};
  if (query.length === 0) return highlights;
  const fields: readonly HighlightTextField[] = mode === 'list' ? HIGHLIGHT_TEXT_FIELDS : ['project_name'];
  const matchedQueryWords = new Set<number>();
  for (const field of fields) {
    const value = source[field];
    if (typeof value !== 'string' || value === '') continue;
    const spans: Span[] = [];
    // The reference code as typed (case aside) is the whole value.
    if (field === 'reference_code' && whole === value.toLowerCase()) {
      spans.push([0, value.length]);
      query.forEach((_, index) => matchedQueryWords.add(index));
    }
    const words = valueWords(value);
    query.forEach((typed, index) => {
      const last = index === query.length - 1;
      let matched = false;
      for (const word of words) {
        if (wordNames(typed, word, last, mode)) {
          spans.push([word.start, word.end]);
          matched = true;
        }
      }
      const joined = joinedRuns(typed, words, last, mode);
      spans.push(...joined);
      if (matched || joined.length > 0) matchedQueryWords.add(index);
    });
    const split = splitMatches(query, words, mode);
    spans.push(...split.spans);
    for (const index of split.queryIndexes) matchedQueryWords.add(index);
    if (spans.length > 0) highlights[field] = mergeSpans(spans);
  }
  if (mode === 'list') {
    const technology = source.technology ? technologyWords(source.technology) : [];
    const country = countryNameWords(source.country_code ?? null).flatMap((name) => name.split(' '));
    query.forEach((typed, index) => {
      if (matchedQueryWords.has(index)) return;
      const last = index === query.length - 1;
      if (technology.length > 0 && namesAnyOf(typed, technology, last)) highlights.technology = true;
      if (country.length > 0 && namesAnyOf(typed, country, last)) highlights.country_code = true;
    });
  }
  return highlights;
}

const spansSchema = (field: string) =>
  Type.Array(
    Type.Unsafe<Span>({
      type: 'array',
      items: { type: 'integer', minimum: 0 },
      minItems: 2,
      maxItems: 2,
      description: '[start, end): start inclusive, end exclusive, start < end.',
    }),
    {
      minItems: 1,
      description:
        `[start, end) spans of ${field} as served that matched a word of q, in UTF-16 code units ` +
        '(String.prototype.slice); sorted, never overlapping.',
    },
  );

/** The `highlights` member of a list item or a suggestion (only with highlight=true and a q). */
export const HighlightsSchema = Type.Unsafe<Highlights>({
  type: 'object',
  additionalProperties: false,
  description:
    'Only with highlight=true and a q: why the PPA matched. For each searched field of the item that a word of q ' +
    'names (typo, accents, joined or split words, numerals and abbreviations written the other way, the word ' +
    'being typed included), the spans of the words it names; technology/country_code true when a word of q ' +
    "named the PPA's technology or country instead. Only fields the item carries. {} when nothing can be marked.",
  properties: {
    project_name: spansSchema('project_name'),
    developer: spansSchema('developer'),
    location: spansSchema('location'),
    reference_code: spansSchema('reference_code'),
    technology: Type.Literal(true),
    country_code: Type.Literal(true),
  },
});
