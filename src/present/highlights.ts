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
import { allowedTypos, formOf, names, type Form, type HighlightMode } from './typedWord.js';

export { editDistance } from './typedWord.js';

export type { HighlightMode } from './typedWord.js';

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

/** A word of a served value as the standard tokenizer cuts it, with its UTF-16 offsets in the served value. */
interface ValueWord {
  start: number;
  end: number;
  /** Folded, inner punctuation dropped ("P.E." → pe). */
  written: Form;
  /** The canonical words (numerals as digits, abbreviations written out) joined. */
  compact: Form;
  /** Every form a typed word may name: written, compact, each canonical word (no repeats). */
  targets: Form[];
}

/** Two adjacent words of a value that one typed word may join ("kafuegorge"), and a third after them. */
interface ValueRun {
  first: ValueWord;
  second: ValueWord;
  /** The two written as one: canonical, then as written. */
  pairs: [Form, Form];
  /** The longer of the two words' compact forms, in letters. */
  longestPart: number;
  /** The word after the two, and the three written as one (canonical; as written). */
  third?: { word: ValueWord; triples: [string, string] };
}

/** A served value cut into words, and its runs of adjacent words. */
interface ValueCut {
  words: ValueWord[];
  runs: ValueRun[];
}

/** A word of `q`, its forms. */
interface QueryWord {
  /** Every form it is compared by: written, canonical, compact (no repeats). */
  forms: Form[];
  /** The canonical words joined. */
  compact: Form;
  /** The forms that may join words of a value (compact; written compact): five letters or more. */
  joining: Form[];
  /** The folded words of each of its tokens (how technology and country words are looked up). */
  tokenWords: string[][];
}

/** 2–3 adjacent words of `q` written as one (a split word: "hydro electric"). */
interface QuerySplit {
  compact: Form;
  from: number;
  length: number;
  last: boolean;
}

// The standard tokenizer's words (indexContract/text/prefixes.ts STANDARD_TOKEN), on the served text so that the
// offsets are the served value's.
const SERVED_TOKEN = /[\p{L}\p{N}\p{M}_]+(?:(?:['’.:·]|(?<=\p{N})[,;](?=\p{N}))[\p{L}\p{N}\p{M}_]+)*/gu;
/** SERVED_TOKEN for a value of ASCII only (no marks, no curly apostrophe or middle dot there). */
const ASCII_SERVED_TOKEN = /[A-Za-z0-9_]+(?:(?:['.:]|(?<=[0-9])[,;](?=[0-9]))[A-Za-z0-9_]+)*/g;
const ASCII_VALUE = /^[ -~\t\n\r]*$/;
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;
const MAX_WORDS = 12;

/** Bounded memo: the oldest entry dropped past `bound`. */
function remembered<T>(memo: Map<string, T>, bound: number, key: string, make: (key: string) => T): T {
  let value = memo.get(key);
  if (value === undefined) {
    value = make(key);
    if (memo.size >= bound) memo.delete(memo.keys().next().value!);
    memo.set(key, value);
  }
  return value;
}

/** Values cut into words, kept across answers (the same PPAs, developers and places recur). */
const CUT_VALUES = new Map<string, ValueCut>();
const MAX_CUT_VALUES = 10_000;
/** Technology and country words by value: a handful of each. */
const DESCRIPTOR_WORDS = new Map<string, string[]>();
const MAX_DESCRIPTORS = 1_000;

/** Empties the kept values (for a benchmark of the presenter at first sight). */
export function forgetHighlightCaches(): void {
  CUT_VALUES.clear();
}

function cutValue(value: string): ValueCut {
  const words: ValueWord[] = [];
  // Most values are plain ASCII: the same words by a plainer pattern, and a word of letters and digits only is
  // its own folded token (lowercased), without the general path's folding and cutting.
  const ascii = ASCII_VALUE.test(value);
  for (const match of value.matchAll(ascii ? ASCII_SERVED_TOKEN : SERVED_TOKEN)) {
    const text = match[0];
    const tokens = ascii && ALPHANUMERIC.test(text) ? [text.toLowerCase()] : standardTokens(foldText(text));
    const canonical = canonicalOfTokens(tokens);
    const written = writtenOfTokens(tokens).join('');
    const compact = canonical.join('');
    const targets = [formOf(written)];
    const compactForm = compact === written ? targets[0]! : formOf(compact);
    if (compactForm !== targets[0]) targets.push(compactForm);
    for (const word of canonical) {
      if (!targets.some((target) => target.text === word)) targets.push(formOf(word));
    }
    words.push({
      start: match.index,
      end: match.index + text.length,
      written: targets[0]!,
      compact: compactForm,
      targets,
    });
  }
  const runs: ValueRun[] = [];
  for (let index = 0; index + 1 < words.length; index++) {
    const first = words[index]!;
    const second = words[index + 1]!;
    const third = words[index + 2];
    const compactPair = first.compact.text + second.compact.text;
    const writtenPair = first.written.text + second.written.text;
    const pairForm = formOf(compactPair);
    runs.push({
      first,
      second,
      pairs: [pairForm, writtenPair === compactPair ? pairForm : formOf(writtenPair)],
      longestPart: Math.max(first.compact.letters, second.compact.letters),
      ...(third
        ? {
            third: {
              word: third,
              triples: [compactPair + third.compact.text, writtenPair + third.written.text],
            },
          }
        : {}),
    });
  }
  return { words, runs };
}

function queryWords(q: string): QueryWord[] {
  const words: QueryWord[] = [];
  for (const word of foldText(q.trim()).split(/\s+/u)) {
    if (words.length === MAX_WORDS) break;
    if (!/[\p{L}\p{N}]/u.test(word)) continue;
    const tokens = standardTokens(word);
    if (tokens.length === 0) continue;
    const written = writtenOfTokens(tokens);
    const canonical = canonicalOfTokens(tokens);
    const compact = canonical.join('');
    const writtenCompact = written.join('');
    words.push({
      forms: [...new Set([...written, ...canonical, compact, writtenCompact])].map(formOf),
      compact: formOf(compact),
      joining: [...new Set([compact, writtenCompact])].map(formOf).filter((form) => form.letters >= 5),
      tokenWords: tokens.map((token) => foldedWords(token)),
    });
  }
  return words;
}

/** The runs of 2–3 adjacent words of `q` that may name one word of a value together. */
function querySplits(query: readonly QueryWord[]): QuerySplit[] {
  const splits: QuerySplit[] = [];
  for (let from = 0; from < query.length; from++) {
    let compact = query[from]!.compact.text;
    for (let length = 2; length <= 3 && from + length <= query.length; length++) {
      compact += query[from + length - 1]!.compact.text;
      const form = formOf(compact);
      if (form.letters >= 5)
        splits.push({ compact: form, from, length, last: from + length === query.length });
    }
  }
  return splits;
}

/** Whether a word of `q` names a word of the value, by any of its forms. */
function wordNames(query: QueryWord, word: ValueWord, last: boolean, mode: HighlightMode): boolean {
  // Canonical words of an abbreviation ("HPP" → hydro power plant) each name the word they stand for.
  for (const typed of query.forms)
    for (const target of word.targets) if (names(typed, target, last, mode)) return true;
  return false;
}

/**
 * Marks the runs of adjacent value words that one typed word joins ("kafuegorge"), each word of the run: two
 * words as typed, with the typos allowed or (the word being typed) past the first word's end; three only as typed.
 * Whether it marked any.
 */
function markJoinedRuns(
  query: QueryWord,
  runs: readonly ValueRun[],
  last: boolean,
  mode: HighlightMode,
  spans: Span[],
): boolean {
  let marked = false;
  for (const run of runs) {
    const [compactPair, writtenPair] = run.pairs;
    for (const form of query.joining) {
      // Far longer than either word: not one of them with a typo.
      const joinsTwo =
        form.text === compactPair.text ||
        form.text === writtenPair.text ||
        (form.letters > run.longestPart + allowedTypos(form, compactPair, mode) &&
          (names(form, compactPair, last, mode) ||
            (writtenPair !== compactPair && names(form, writtenPair, last, mode))));
      if (joinsTwo) {
        spans.push([run.first.start, run.first.end], [run.second.start, run.second.end]);
        marked = true;
      }
      const third = run.third;
      if (third && (form.text === third.triples[0] || form.text === third.triples[1])) {
        spans.push(
          [run.first.start, run.first.end],
          [run.second.start, run.second.end],
          [third.word.start, third.word.end],
        );
        marked = true;
      }
    }
  }
  return marked;
}
/** Marks the value words that 2–3 adjacent typed words name together; adds those typed words to `matched`. */
function markSplitWords(
  splits: readonly QuerySplit[],
  words: readonly ValueWord[],
  mode: HighlightMode,
  spans: Span[],
  matched: Set<number>,
): void {
  for (const split of splits) {
    for (const word of words) {
      if (
        names(split.compact, word.compact, split.last, mode) ||
        (word.written !== word.compact && names(split.compact, word.written, split.last, mode))
      ) {
        spans.push([word.start, word.end]);
        for (let index = split.from; index < split.from + split.length; index++) matched.add(index);
      }
    }
  }
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
  return query.tokenWords.some((typedWords) =>
    typedWords.every((typed) =>
      vocabulary.some((word) => word === typed || (last && word.startsWith(typed))),
    ),
  );
}

const technologyVocabulary = (technology: string) =>
  remembered(DESCRIPTOR_WORDS, MAX_DESCRIPTORS, `t${technology}`, () => technologyWords(technology));
const countryVocabulary = (code: string) =>
  remembered(DESCRIPTOR_WORDS, MAX_DESCRIPTORS, `c${code}`, () =>
    countryNameWords(code).flatMap((name) => name.split(' ')),
  );

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
  const splits = querySplits(query);
  // The reference code is also looked up as typed, case aside (textQuery.ts referenceCode).
  const whole = q.trim().toLowerCase();
  return (source) => highlightsOf(query, splits, whole, source, mode);
}

function highlightsOf(
  query: readonly QueryWord[],
  splits: readonly QuerySplit[],
  whole: string,
  source: HighlightSource,
  mode: HighlightMode,
): Highlights {
  const highlights: Highlights = {};
  if (query.length === 0) return highlights;
  const fields: readonly HighlightTextField[] = mode === 'list' ? HIGHLIGHT_TEXT_FIELDS : ['project_name'];
  const matched = new Set<number>();
  for (const field of fields) {
    const value = source[field];
    if (typeof value !== 'string' || value === '') continue;
    const spans: Span[] = [];
    // The reference code as typed (case aside) is the whole value.
    if (field === 'reference_code' && whole === value.toLowerCase()) {
      spans.push([0, value.length]);
      for (let index = 0; index < query.length; index++) matched.add(index);
    }
    const { words, runs } = remembered(CUT_VALUES, MAX_CUT_VALUES, value, cutValue);
    for (let index = 0; index < query.length; index++) {
      const typed = query[index]!;
      const last = index === query.length - 1;
      let named = false;
      for (const word of words) {
        if (wordNames(typed, word, last, mode)) {
          spans.push([word.start, word.end]);
          named = true;
        }
      }
      if (typed.joining.length > 0 && markJoinedRuns(typed, runs, last, mode, spans)) named = true;
      if (named) matched.add(index);
    }
    markSplitWords(splits, words, mode, spans, matched);
    if (spans.length > 0) highlights[field] = mergeSpans(spans);
  }
  if (mode === 'list' && matched.size < query.length) {
    const technology = source.technology ? technologyVocabulary(source.technology) : [];
    const country = source.country_code ? countryVocabulary(source.country_code) : [];
    for (let index = 0; index < query.length; index++) {
      if (matched.has(index)) continue;
      const typed = query[index]!;
      const last = index === query.length - 1;
      if (technology.length > 0 && namesAnyOf(typed, technology, last)) highlights.technology = true;
      if (country.length > 0 && namesAnyOf(typed, country, last)) highlights.country_code = true;
    }
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
