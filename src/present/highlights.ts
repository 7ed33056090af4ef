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
//
// Its cost is the API's (its budget and figures: docs/performance.md; `npm run bench -- highlights`): values are cut by hand
// when ASCII (servedWords.ts); a plain word (ASCII letters and digits, no abbreviation or numeral) is compared by its length and
// letters read off the value, and only the few that may match have their forms looked up (WORD_FORMS, kept across
// answers); within one answer, which words of `q` name a served word is worked out once per distinct word
// (QueryPlan.stamp), and two words a typed word might join are ruled out the same way before the pair is built.
import {
  canonicalOfTokens,
  ROMAN_NUMERALS,
  SECTOR_ABBREVIATIONS,
  technologyWords,
  writtenOfTokens,
} from '../../indexContract/text/canonical.js';
import { countryNameWords } from '../../indexContract/text/countryNames.js';
import { foldText } from '../../indexContract/text/fold.js';
import { foldedWords, standardTokens } from '../../indexContract/text/prefixes.js';
import { Type } from '../wire/bodySchema.js';
import { cutServedValue, SERVED_WORDS } from './servedWords.js';
import {
  allowedTypos,
  bitCount,
  formOf,
  missingLetters,
  names,
  type Form,
  type HighlightMode,
  type TypoRules,
} from './typedWord.js';

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

/** What a word of a served value may be named by, whatever value it is in (kept across answers: words recur). */
interface WordForms {
  /** Folded, inner punctuation dropped ("P.E." → pe). */
  written: Form;
  /** The canonical words (numerals as digits, abbreviations written out) joined. */
  compact: Form;
  /** Every form a typed word may name: written, compact, each canonical word (no repeats). */
  targets: Form[];
  /** The answer being presented when `bits` was set (QueryPlan.stamp): answers share words. */
  stamp: number;
  /** For that answer, the words of `q` that name this word, alone or split (bits). */
  bits: number;
}

/** A word of `q`, its forms. */
interface QueryWord {
  /** Every form it is compared by in names: written, canonical, compact (no repeats). */
  forms: Form[];
  /** Its written forms (its tokens, inner punctuation dropped): how it is compared outside names. */
  written: Form[];
  /** The canonical words joined. */
  compact: Form;
  /** The forms that may join words of a value (compact; written compact): five letters or more. */
  joining: Form[];
  /** Its standard tokens; their folded words (tokenWords()) are how technology and country words are looked up. */
  tokens: string[];
  /** tokenWords(), once asked for (most answers never need them: a word of the text names every word of `q`). */
  folded?: string[][];
}

/** 2–3 adjacent words of `q` written as one (a split word: "hydro electric"): the bits of those words. */
interface QuerySplit {
  compact: Form;
  bits: number;
  last: boolean;
}

/** `q` read once for a whole answer, and what its words name, remembered for that answer. */
interface QueryPlan {
  words: QueryWord[];
  splits: QuerySplit[];
  /** Whether any word of `q` may join two words of a value. */
  joins: boolean;
  /** Every word of `q`, as bits (bit i: the i-th word). */
  all: number;
  /** The reference code as typed, case aside (textQuery.ts referenceCode). */
  whole: string;
  mode: HighlightMode;
  /** The typo rules words are compared by: the mode's in names; textPlanOf's and codePlanOf's elsewhere. */
  rules: TypoRules;
  /** Words compared by their written forms only (no numeral, abbreviation or compact form): outside names. */
  writtenOnly: boolean;
  /** The plan for the developer and the location (made when first needed): see textPlanOf. */
  text: QueryPlan | undefined;
  /** The plan for the reference code (made when first needed): see codePlanOf. */
  code: QueryPlan | undefined;
  /** Tells this answer's bits on WordForms from another's. */
  stamp: number;
  /** The lengths of the joining forms (UTF-16 units): three words written as one are looked for only at these. */
  joiningLengths: number[];
  /** Technology → the words of `q` that name it. */
  byTechnology: Map<string, number>;
  /** Country code → the words of `q` that name the country. */
  byCountry: Map<string, number>;
  /** Every form a served word is compared with (each word's forms, the splits), for the plain-word prefilter. */
  typed: Int32Array;
  /** The joining forms, for the plain-pair prefilter (a sieve of them). */
  joining: Int32Array;
}

const ALPHANUMERIC = /^[A-Za-z0-9]+$/;
const MAX_WORDS = 12;

// Kept across answers in plain Maps, each emptied whole when it reaches its bound (a registry's vocabulary is far
// smaller, so in practice never). Not lru-cache: its bookkeeping on every read (the recency lists) touched memory
// that Elasticsearch's work between two answers had evicted from the processor's caches, and the plain Maps
// measured faster inside the API (docs/performance.md, "Highlights").
/** The forms of served words. */
const WORD_FORMS = new Map<string, WordForms>();
/** Technology words by technology, country names' words by country code: a handful of each. */
const TECHNOLOGY_WORDS = new Map<string, string[]>();
const COUNTRY_WORDS = new Map<string, string[]>();
const MAX_WORD_FORMS = 20_000;
const MAX_DESCRIPTORS = 1_000;

/** The value kept under `key`, made and kept first if there is none (the memo emptied first if full). */
function remembered<T>(memo: Map<string, T>, max: number, key: string, make: (key: string) => T): T {
  let value = memo.get(key);
  if (value === undefined) {
    if (memo.size >= max) memo.clear();
    value = make(key);
    memo.set(key, value);
  }
  return value;
}

/** Empties the kept words (for a benchmark of the presenter at first sight). */
export function forgetHighlightCaches(): void {
  WORD_FORMS.clear();
}

function wordFormsOf(text: string): WordForms {
  // A word of ASCII letters and digits only is its own folded token, lowercased.
  const tokens = ALPHANUMERIC.test(text) ? [text.toLowerCase()] : standardTokens(foldText(text));
  const canonical = canonicalOfTokens(tokens);
  const written = writtenOfTokens(tokens).join('');
  const compact = canonical.join('');
  const targets = [formOf(written)];
  const compactForm = compact === written ? targets[0]! : formOf(compact);
  if (compactForm !== targets[0]) targets.push(compactForm);
  for (const word of canonical) {
    if (!targets.some((target) => target.text === word)) targets.push(formOf(word));
  }
  return { written: targets[0]!, compact: compactForm, targets, stamp: 0, bits: 0 };
}

const formsOf = (text: string) => remembered(WORD_FORMS, MAX_WORD_FORMS, text, wordFormsOf);

/** A folded word of `q` that is its own only standard token (most are): read without the tokenizer's pattern. */
const PLAIN_QUERY_WORD = /^[a-z0-9]+$/;

function queryWords(q: string): QueryWord[] {
  const words: QueryWord[] = [];
  for (const word of foldText(q.trim()).split(/\s+/u)) {
    if (words.length === MAX_WORDS) break;
    const plain = PLAIN_QUERY_WORD.test(word);
    if (plain && !Object.hasOwn(ROMAN_NUMERALS, word) && !Object.hasOwn(SECTOR_ABBREVIATIONS, word)) {
      // Most words of `q`: their own only form, as typed, canonical and compact alike.
      const form = formOf(word);
      const forms = [form];
      words.push({
        forms,
        written: forms,
        compact: form,
        joining: form.letters >= 5 ? forms : [],
        tokens: [word],
      });
      continue;
    }
    if (!plain && !/[\p{L}\p{N}]/u.test(word)) continue;
    const tokens = plain ? [word] : standardTokens(word);
    if (tokens.length === 0) continue;
    const written = plain ? tokens : writtenOfTokens(tokens);
    const canonical = canonicalOfTokens(tokens);
    const compact = canonical.join('');
    const writtenCompact = written.join('');
    // Each text once as a Form, whichever of the word's forms it is.
    const forms = new Map<string, Form>();
    for (const text of [...written, ...canonical, compact, writtenCompact]) {
      if (!forms.has(text)) forms.set(text, formOf(text));
    }
    words.push({
      forms: [...forms.values()],
      written: [...new Set(written)].map((text) => forms.get(text)!),
      compact: forms.get(compact)!,
      joining: [...new Set([compact, writtenCompact])]
        .map((text) => forms.get(text)!)
        .filter((form) => form.letters >= 5),
      tokens,
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
      if (form.letters >= 5) {
        const bits = ((1 << length) - 1) << from;
        splits.push({ compact: form, bits, last: from + length === query.length });
      }
    }
  }
  return splits;
}

/** The words of `q` that name a served word: each alone by any of its forms, or 2–3 of them split (bits). */
function namingWords(plan: QueryPlan, word: WordForms): number {
  if (word.stamp === plan.stamp) return word.bits;
  const { words, rules } = plan;
  let bits = 0;
  for (let index = 0; index < words.length; index++) {
    const last = index === words.length - 1;
    if (plan.writtenOnly) {
      for (const typed of words[index]!.written) {
        if (names(typed, word.written, last, rules)) {
          bits |= 1 << index;
          break;
        }
      }
      continue;
    }
    // Canonical words of an abbreviation ("HPP" → hydro power plant) each name the word they stand for.
    search: for (const typed of words[index]!.forms) {
      for (const target of word.targets) {
        if (names(typed, target, last, rules)) {
          bits |= 1 << index;
          break search;
        }
      }
    }
  }
  for (const split of plan.splits) {
    if (
      (bits & split.bits) !== split.bits &&
      (names(split.compact, word.compact, split.last, rules) ||
        (word.written !== word.compact && names(split.compact, word.written, split.last, rules)))
    ) {
      bits |= split.bits;
    }
  }
  word.stamp = plan.stamp;
  word.bits = bits;
  return bits;
}

/** Whether `text` is `first` followed by `second`, without building the pair. */
const isPair = (text: string, first: string, second: string) =>
  text.length === first.length + second.length && text.startsWith(first) && text.endsWith(second);

/**
 * The words of `q` that join two adjacent served words ("kafuegorge"): as typed, with the typos allowed or (the
 * word being typed) past the first word's end, and far longer than either word (not one of them with a typo).
 */
function joiningWords(plan: QueryPlan, first: WordForms, second: WordForms): number {
  const { words, rules } = plan;
  const compactLength = first.compact.text.length + second.compact.text.length;
  const writtenLength = first.written.text.length + second.written.text.length;
  const longestPart = Math.max(first.compact.letters, second.compact.letters);
  let compactPair: Form | undefined;
  let writtenPair: Form | undefined;
  let bits = 0;
  for (let index = 0; index < words.length; index++) {
    const last = index === words.length - 1;
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
      // either word; at most two of its letters missing from the pair (each an edit); a length within two typos
      // (four units) of the pair's, or (the word being typed) the pair longer.
      if (form.letters <= longestPart) continue;
      if (
        missingLetters(form, first.compact.letterBits | second.compact.letterBits) > 2 &&
        missingLetters(form, first.written.letterBits | second.written.letterBits) > 2
      ) {
        continue;
      }
      if (!last && Math.abs(length - compactLength) > 4 && Math.abs(length - writtenLength) > 4) continue;
      compactPair ??= formOf(first.compact.text + second.compact.text);
      if (form.letters <= longestPart + allowedTypos(form, compactPair.letters, rules)) continue;
      writtenPair ??=
        first.written === first.compact && second.written === second.compact
          ? compactPair
          : formOf(first.written.text + second.written.text);
      if (
        names(form, compactPair, last, rules) ||
        (writtenPair.text !== compactPair.text && names(form, writtenPair, last, rules))
      ) {
        bits |= 1 << index;
        break;
      }
    }
  }
  return bits;
}

/** The words of `q` that, as typed, are three adjacent served words written as one. */
function joiningThree(plan: QueryPlan, a: WordForms, b: WordForms, c: WordForms): number {
  const lengths = plan.joiningLengths;
  if (
    !lengths.includes(a.compact.text.length + b.compact.text.length + c.compact.text.length) &&
    !lengths.includes(a.written.text.length + b.written.text.length + c.written.text.length)
  ) {
    return 0;
  }
  let bits = 0;
  for (let index = 0; index < plan.words.length; index++) {
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

/** The folded words of each token of a word of `q`. */
const tokenWords = (query: QueryWord) => (query.folded ??= query.tokens.map((token) => foldedWords(token)));

/** Whether a typed word names one of the words `vocabulary` holds (the last word also as a prefix). */
function namesAnyOf(query: QueryWord, vocabulary: readonly string[], last: boolean): boolean {
  // Loops rather than some()/every() with closures: this runs for every technology and country of an answer.
  for (const typedWords of tokenWords(query)) {
    let all = true;
    for (const typed of typedWords) {
      let found = false;
      for (const word of vocabulary) {
        if (word === typed || (last && word.startsWith(typed))) {
          found = true;
          break;
        }
      }
      if (!found) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

const technologyVocabulary = (technology: string) =>
  remembered(TECHNOLOGY_WORDS, MAX_DESCRIPTORS, technology, technologyWords);
const countryWordsOf = (code: string) => countryNameWords(code).flatMap((name) => name.split(' '));
const countryVocabulary = (code: string) => remembered(COUNTRY_WORDS, MAX_DESCRIPTORS, code, countryWordsOf);

/** The words of `q` that name a technology or a country (its vocabulary). */
function descriptorWords(
  plan: QueryPlan,
  byDescriptor: Map<string, number>,
  key: string,
  vocabulary: (key: string) => readonly string[],
): number {
  let bits = byDescriptor.get(key);
  if (bits === undefined) {
    const words = vocabulary(key);
    bits = 0;
    for (let index = 0; index < plan.words.length; index++) {
      if (namesAnyOf(plan.words[index]!, words, index === plan.words.length - 1)) bits |= 1 << index;
    }
    byDescriptor.set(key, bits);
  }
  return bits;
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

/** Answers presented so far: each answer's plan has its own stamp. */
let answers = 0;

/**
 * computeHighlights for the items of one answer: `q` is read once, and what its words name is remembered for the
 * answer (its items share developers, places and words).
 */
export function highlighter(
  q: string,
  mode: HighlightMode = 'list',
): (source: HighlightSource) => Highlights {
  const words = queryWords(q);
  const splits = querySplits(words);
  const plan: QueryPlan = {
    words,
    splits,
    joins: words.some((word) => word.joining.length > 0),
    all: (1 << words.length) - 1,
    whole: q.trim().toLowerCase(),
    mode,
    rules: mode,
    writtenOnly: false,
    text: undefined,
    code: undefined,
    stamp: ++answers,
    joiningLengths: joiningLengthsOf(words),
    byTechnology: new Map(),
    byCountry: new Map(),
    // Every form a served word is compared with (each word's forms, the splits); those that may join two words.
    typed: sieveOf(words, (word) => word.forms, mode, splits),
    joining: sieveOf(words, (word) => word.joining, mode),
  };
  return (source) => highlightsOf(plan, source);
}

/** The lengths of the joining forms, each once. */
function joiningLengthsOf(words: readonly QueryWord[]): number[] {
  const lengths: number[] = [];
  for (const word of words) {
    for (const form of word.joining) if (!lengths.includes(form.text.length)) lengths.push(form.text.length);
  }
  return lengths;
}

/**
 * The plan for the developer and the location, as the list's query looks for words there (src/search/textQuery.ts):
 * by their written forms, as typed, with the fuzziness's typos (TYPO_FIELDS), or as the start of the word being
 * typed. Numerals and abbreviations written the other way, joined and split words, dropped letters: in names only.
 * Its own stamp: a word's bits under these rules are not the name's. The sieve is the list's: it lets through every
 * word the stricter rules could name (it only rules words out).
 */
function textPlanOf(plan: QueryPlan): QueryPlan {
  return { ...plan, splits: NO_SPLITS, joins: false, rules: 'text', writtenOnly: true, stamp: ++answers };
}

/** The plan for the reference code: as textPlanOf, but no typos (TYPO_FIELDS leaves the code out). */
function codePlanOf(plan: QueryPlan): QueryPlan {
  return { ...plan, splits: NO_SPLITS, joins: false, rules: 'exact', writtenOnly: true, stamp: ++answers };
}

const NO_SPLITS: QuerySplit[] = [];

// A plain word (ASCII letters and digits, no abbreviation or numeral: servedWords.ts) is its own only form,
// lowercased: its length and letters, read off the value, rule out most comparisons before its forms are looked up
// (WORD_FORMS lookups were most of the presenter's time in the API, each a miss in the processor's caches).
/** The words of the value being looked at (the same arrays every time: cutServedValue() refills them). */
const { starts: wordStarts, ends: wordEnds, plainLetters } = SERVED_WORDS;
/** The words' forms, once looked up (undefined until then), as cutServedValue() numbered them. */
const wordForms: (WordForms | undefined)[] = [];
/** Per word: 0 unmarked; the bits of the words of `q` that name it. */
const wordBits: number[] = [];

/** The forms of the k-th word of `value`, looked up once. */
function formsAt(value: string, k: number): WordForms {
  return (wordForms[k] ??= formsOf(value.slice(wordStarts[k], wordEnds[k])));
}

// A sieve: what the plain-word prefilter needs of each typed form, as numbers in one typed array (it runs for
// every plain word of every value of an answer): letters, letter buckets, first unit, whether it is the word being
// typed, and the typos it is allowed against a longer word and against any other.
const SIEVE_STRIDE = 6;

/** One form's entry of a sieve at `at`; the next entry's place. */
function sieveEntry(sieve: Int32Array, at: number, form: Form, last: boolean, mode: TypoRules): number {
  sieve[at] = form.letters;
  sieve[at + 1] = form.letterBits;
  sieve[at + 2] = form.text.charCodeAt(0);
  sieve[at + 3] = last ? 1 : 0;
  sieve[at + 4] = allowedTypos(form, form.letters + 1, mode);
  sieve[at + 5] = allowedTypos(form, form.letters, mode);
  return at + SIEVE_STRIDE;
}

/** A sieve of the forms `pick` takes of each word of `q` (whether it is the word being typed: the last), then of `splits`. */
function sieveOf(
  words: readonly QueryWord[],
  pick: (word: QueryWord) => readonly Form[],
  mode: TypoRules,
  splits: readonly QuerySplit[] = NO_SPLITS,
): Int32Array {
  let count = splits.length;
  for (const word of words) count += pick(word).length;
  const sieve = new Int32Array(count * SIEVE_STRIDE);
  let at = 0;
  words.forEach((word, index) => {
    for (const form of pick(word)) at = sieveEntry(sieve, at, form, index === words.length - 1, mode);
  });
  for (const split of splits) at = sieveEntry(sieve, at, split.compact, split.last, mode);
  return sieve;
}

/**
 * Whether a form of the sieve may name a plain word of `letters` letters, these letter buckets and this first unit
 * (lowercased): names()'s tests, on numbers only. Equal or within the typos allowed: as many letters, give or take
 * the typos, and at most that many letters of either missing from the other. The word being typed, the start of
 * the word with at most one typo: as long less one or longer, its first letter, at most one letter missing.
 */
function sieveNames(
  sieve: Int32Array,
  letters: number,
  bits: number,
  firstUnit: number,
  minLetters = 0,
): boolean {
  for (let at = 0; at < sieve.length; at += SIEVE_STRIDE) {
    const typedLetters = sieve[at]!;
    if (typedLetters <= minLetters) continue;
    const typedBits = sieve[at + 1]!;
    const apart = typedLetters - letters;
    const typos = apart < 0 ? sieve[at + 4]! : sieve[at + 5]!;
    const missing = bitCount(typedBits & ~bits);
    if (apart <= typos && -apart <= typos && missing <= typos && bitCount(bits & ~typedBits) <= typos)
      return true;
    if (sieve[at + 3] === 1 && apart <= 1 && missing <= 1 && sieve[at + 2] === firstUnit) return true;
  }
  return false;
}

/** The k-th word's first unit, lowercased (a plain word's: ASCII letters and digits). */
const firstUnitAt = (value: string, k: number) => value.charCodeAt(wordStarts[k]!) | 32;

/** Whether a word of `q` may name the k-th word, a plain one (namingWords' comparisons, on numbers only). */
function mayBeNamed(plan: QueryPlan, value: string, k: number): boolean {
  return sieveNames(plan.typed, wordEnds[k]! - wordStarts[k]!, plainLetters[k]!, firstUnitAt(value, k));
}

/** Whether a word of `q` may join the k-th and next words, both plain (joiningWords' comparisons, on numbers). */
function mayBeJoined(plan: QueryPlan, value: string, k: number): boolean {
  const first = wordEnds[k]! - wordStarts[k]!;
  const second = wordEnds[k + 1]! - wordStarts[k + 1]!;
  // Far longer than either word (minLetters): not one of them with a typo.
  return sieveNames(
    plan.joining,
    first + second,
    plainLetters[k]! | plainLetters[k + 1]!,
    firstUnitAt(value, k),
    Math.max(first, second),
  );
}

/** The words of `q` that named any word of the last value valueSpans() looked at. */
let valueMatched = 0;

/** The spans of one value (undefined: none), its words of `q` in valueMatched. */
function valueSpans(plan: QueryPlan, value: string, isReferenceCode: boolean): Span[] | undefined {
  const count = cutServedValue(value);
  for (let k = 0; k < count; k++) wordForms[k] = undefined;
  let matched = 0;
  for (let k = 0; k < count; k++) {
    const bits =
      plainLetters[k]! >= 0 && !mayBeNamed(plan, value, k) ? 0 : namingWords(plan, formsAt(value, k));
    wordBits[k] = bits;
    matched |= bits;
  }
  if (plan.joins) {
    for (let k = 0; k + 1 < count; k++) {
      const plainPair = plainLetters[k]! >= 0 && plainLetters[k + 1]! >= 0;
      const bits =
        plainPair && !mayBeJoined(plan, value, k)
          ? 0
          : joiningWords(plan, formsAt(value, k), formsAt(value, k + 1));
      if (bits !== 0) {
        wordBits[k]! |= bits;
        wordBits[k + 1]! |= bits;
        matched |= bits;
      }
      if (k + 2 < count) {
        // Three plain words written as one are as long as the three: no joining form that long, no join.
        const threeLength =
          wordEnds[k]! -
          wordStarts[k]! +
          wordEnds[k + 1]! -
          wordStarts[k + 1]! +
          wordEnds[k + 2]! -
          wordStarts[k + 2]!;
        const plainThree =
          plainPair && plainLetters[k + 2]! >= 0 && !plan.joiningLengths.includes(threeLength);
        const three = plainThree
          ? 0
          : joiningThree(plan, formsAt(value, k), formsAt(value, k + 1), formsAt(value, k + 2));
        if (three !== 0) {
          wordBits[k]! |= three;
          wordBits[k + 1]! |= three;
          wordBits[k + 2]! |= three;
          matched |= three;
        }
      }
    }
  }
  // The reference code as typed (case aside) is the whole value, every word of `q`.
  if (isReferenceCode && plan.whole === value.toLowerCase()) {
    valueMatched = plan.all;
    return [[0, value.length]];
  }
  valueMatched = matched;
  if (matched === 0) return undefined;
  // Words never touch (the tokenizer takes the longest run), so each marked word is a span of its own, in order.
  const spans: Span[] = [];
  for (let k = 0; k < count; k++) if (wordBits[k] !== 0) spans.push([wordStarts[k]!, wordEnds[k]!]);
  return spans;
}

/** The spans of one field's value into `highlights` (none when absent, null or empty); the words of `q` it named. */
function fieldSpans(
  plan: QueryPlan,
  highlights: Highlights,
  field: HighlightTextField,
  value: string | null | undefined,
): number {
  if (typeof value !== 'string' || value === '') return 0;
  const code = field === 'reference_code';
  const fieldPlan = code
    ? (plan.code ??= codePlanOf(plan))
    : field === 'project_name'
      ? plan
      : (plan.text ??= textPlanOf(plan));
  const spans = valueSpans(fieldPlan, value, code);
  if (spans !== undefined) highlights[field] = spans;
  return valueMatched;
}

function highlightsOf(plan: QueryPlan, source: HighlightSource): Highlights {
  const highlights: Highlights = {};
  if (plan.words.length === 0) return highlights;
  // The fields read by name, each (HIGHLIGHT_TEXT_FIELDS): items come in many shapes (fields=), and a read by a
  // computed key cost more than the rest of an unmatched value.
  let matched = fieldSpans(plan, highlights, 'project_name', source.project_name);
  if (plan.mode === 'list') {
    matched |= fieldSpans(plan, highlights, 'developer', source.developer);
    matched |= fieldSpans(plan, highlights, 'location', source.location);
    matched |= fieldSpans(plan, highlights, 'reference_code', source.reference_code);
  }
  if (plan.mode === 'list' && matched !== plan.all) {
    const unmatched = plan.all & ~matched;
    const { technology, country_code: country } = source;
    if (
      technology &&
      (descriptorWords(plan, plan.byTechnology, technology, technologyVocabulary) & unmatched) !== 0
    )
      highlights.technology = true;
    if (country && (descriptorWords(plan, plan.byCountry, country, countryVocabulary) & unmatched) !== 0)
      highlights.country_code = true;
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
