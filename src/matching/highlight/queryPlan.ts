// `q` read once for a whole answer: each word of it in every form it is compared by, the runs of words that may
// name one served word together (a split word), and those forms for the plain-word prefilter (prefilter.ts). A
// plan is made per answer, and what it remembers (what the words of `q` name) is that answer's.
import {
  canonicalOfTokens,
  ROMAN_NUMERALS,
  SECTOR_ABBREVIATIONS,
  writtenOfTokens,
} from '../../../indexContract/text/canonical.js';
import { standardTokens } from '../../../indexContract/text/tokenizer.js';
import type { HighlightTextField } from './itemHighlights.js';
import { formOf, type Form } from '../form.js';
import { pastedNameForms } from '../pastedName.js';
import { isPlainWord, plainWordsOf, searchTextOf, typedWords, type SearchText } from '../queryText.js';
import { JOINED_MIN_LETTERS, type MatchMode, type TypoRules } from '../typoRules.js';
import { prefilterForm, type Prefilter } from './prefilter.js';
import type { WordForms } from './servedWordForms.js';

/** A word of `q`, its forms. */
export interface QueryWord {
  /** Every form it is compared by in names: written, canonical, compact (no repeats). */
  forms: Form[];
  /** Its written forms (its tokens, inner punctuation dropped): how it is compared outside names. */
  written: Form[];
  /** The canonical words joined. */
  compact: Form;
  /** The forms that may join words of a value (compact; written compact): five letters or more. */
  joining: Form[];
  /** Its standard tokens; their folded words are how technology and country words are looked up. */
  tokens: string[];
  /** The folded words of each token, once asked for (most answers never need them: descriptors.ts). */
  folded?: string[][];
  /** The word still being typed (the prefix rule): the last term looked for, or an alternative of it. */
  last: boolean;
  /** The one field a qualifier looks for it in; undefined: everywhere `q` looks. */
  only?: HighlightTextField;
}

/** A phrase of `q`: its words' written forms in order, marked as one span where they stand next to each other. */
export interface QueryPhrase {
  written: string[];
  only?: HighlightTextField;
}

/** 2–3 adjacent words of `q` written as one (a split word: "hydro electric"): the bits of those words. */
export interface QuerySplit {
  compact: Form;
  bits: number;
  last: boolean;
}

/** `q` read for one answer and one set of typo rules. */
export interface QueryPlan {
  /** The plain words first (bits 0…), then the other words looked for: alternatives and qualified words. */
  words: QueryWord[];
  phrases: QueryPhrase[];
  /** The words of `q` looked for in the fields this plan marks, as bits. */
  allowed: number;
  /** The words of `q` looked for everywhere (no qualifier): those may name the technology or the country. */
  everywhere: number;
  splits: readonly QuerySplit[];
  /** Whether any word of `q` may join two words of a value. */
  joins: boolean;
  /** Every word of `q`, as bits (bit i: the i-th word). */
  all: number;
  /** The reference code as typed, case aside (textQuery.ts: a plain `q`'s code, a pasted one's). */
  whole: string;
  /** `q` with operators as a whole name, folded (pastedName.ts); none for a plain `q`, whose words mark a name. */
  pastedNames: readonly string[];
  mode: MatchMode;
  /** The typo rules words are compared by: the mode's in names; 'text' or 'exact' elsewhere (textFields.ts). */
  rules: TypoRules;
  /** Words compared by their written forms only (no numeral, abbreviation or compact form): outside names. */
  writtenOnly: boolean;
  /** This answer's memo: the words of `q` that name a served word, alone or split (bits), by its forms. */
  named: Map<WordForms, number>;
  /** The lengths of the joining forms (UTF-16 units): three words written as one are looked for only at these. */
  joiningLengths: number[];
  /** Technology → the words of `q` that name it. */
  byTechnology: Map<string, number>;
  /** Country code → the words of `q` that name the country. */
  byCountry: Map<string, number>;
  /** Every form a served word is compared with (each word's forms, the splits), for the plain-word prefilter. */
  typed: Prefilter;
  /** The joining forms, for the plain-pair prefilter. */
  joining: Prefilter;
}

/** Words of `q` read: the bits of a 32-bit number hold one each, and the API bounds `q` to as many. */
const MAX_WORDS = 12;

/** A folded word of `q` that is its own only standard token (most are): read without the tokenizer. */
const PLAIN_QUERY_WORD = /^[a-z0-9]+$/;

/** A word of `q` (folded) in every form it is compared by. */
function queryWord(word: string, last: boolean, only?: HighlightTextField): QueryWord {
  const plain = PLAIN_QUERY_WORD.test(word);
  if (plain && !Object.hasOwn(ROMAN_NUMERALS, word) && !Object.hasOwn(SECTOR_ABBREVIATIONS, word)) {
    // Most words of `q`: their own only form, as typed, canonical and compact alike.
    const form = formOf(word);
    const forms = [form];
    return {
      forms,
      written: forms,
      compact: form,
      joining: form.letters >= JOINED_MIN_LETTERS ? forms : [],
      tokens: [word],
      last,
      only,
    };
  }
  const tokens = plain ? [word] : standardTokens(word);
  const written = plain ? tokens : writtenOfTokens(tokens);
  const canonical = canonicalOfTokens(tokens);
  const compact = canonical.join('');
  const writtenCompact = written.join('');
  // Each text once as a Form, whichever of the word's forms it is.
  const forms = new Map<string, Form>();
  for (const text of [...written, ...canonical, compact, writtenCompact]) {
    if (!forms.has(text)) forms.set(text, formOf(text));
  }
  return {
    forms: [...forms.values()],
    written: [...new Set(written)].map((text) => forms.get(text)!),
    compact: forms.get(compact)!,
    joining: [...new Set([compact, writtenCompact])]
      .map((text) => forms.get(text)!)
      .filter((form) => form.letters >= JOINED_MIN_LETTERS),
    tokens,
    last,
    only,
  };
}

/** What the highlighter looks for: the words (plain ones first: the splits are theirs) and the phrases. */
interface Wanted {
  words: QueryWord[];
  /** How many of the words are plain (looked for everywhere, as typed). */
  plain: number;
  phrases: QueryPhrase[];
  /** `q` has no operators: it may be a reference code as typed. */
  asTyped: boolean;
}

/**
 * `q` read into what the highlighter looks for: suggest reads it as plain words, as typed; the list by its
 * operators (matching/queryText.ts). What is left out is not looked for, so never marked.
 */
function wantedOf(q: SearchText, mode: MatchMode): Wanted {
  const parsed = mode === 'suggest' ? undefined : q.parsed;
  if (parsed === undefined || parsed.plain) {
    const plain = (parsed ? plainWordsOf(parsed) : typedWords(q.text)).slice(0, MAX_WORDS);
    const words = plain.map((word, index) => queryWord(word, index === plain.length - 1));
    return { words, plain: plain.length, phrases: [], asTyped: true };
  }
  const plainClauses = parsed.clauses.filter(isPlainWord);
  const words = plainClauses.map((clause) => queryWord(clause.terms[0]!.words[0]!, clause.typing));
  const phrases: QueryPhrase[] = [];
  for (const clause of parsed.clauses) {
    if (clause.excluded || isPlainWord(clause)) continue;
    for (const term of clause.terms) {
      if (term.phrase)
        phrases.push({ written: writtenOfTokens(term.words.flatMap(standardTokens)), only: term.field });
      else if (words.length < MAX_WORDS) words.push(queryWord(term.words[0]!, clause.typing, term.field));
    }
  }
  return { words, plain: plainClauses.length, phrases, asTyped: false };
}

/** A word of a value is looked for split into at most this many typed words ("hydro electric"). */
const MAX_SPLIT_WORDS = 3;

/** The runs of 2–3 (MAX_SPLIT_WORDS) adjacent plain words of `q` that may name one word of a value together. */
function querySplits(query: readonly QueryWord[]): QuerySplit[] {
  const splits: QuerySplit[] = [];
  for (let from = 0; from < query.length; from++) {
    let compact = query[from]!.compact.text;
    for (let length = 2; length <= MAX_SPLIT_WORDS && from + length <= query.length; length++) {
      compact += query[from + length - 1]!.compact.text;
      const form = formOf(compact);
      if (form.letters >= JOINED_MIN_LETTERS) {
        const bits = ((1 << length) - 1) << from;
        splits.push({ compact: form, bits, last: query[from + length - 1]!.last });
      }
    }
  }
  return splits;
}

/** The lengths of the joining forms, each once. */
function joiningLengthsOf(words: readonly QueryWord[]): number[] {
  const lengths: number[] = [];
  for (const word of words) {
    for (const form of word.joining) if (!lengths.includes(form.text.length)) lengths.push(form.text.length);
  }
  return lengths;
}

/** The bits of the words `pick` takes. */
function bitsOf(words: readonly QueryWord[], pick: (word: QueryWord) => boolean): number {
  let bits = 0;
  words.forEach((word, index) => {
    if (pick(word)) bits |= 1 << index;
  });
  return bits;
}

/** The words of `q` looked for in `field`: those without a qualifier, and those qualified by it. */
export const allowedIn = (words: readonly QueryWord[], field: HighlightTextField): number =>
  bitsOf(words, (word) => word.only === undefined || word.only === field);

/** The plan of `q` for the project name under `mode`'s rules (the list's `q` as read: its parsed form reused). */
export function namePlanOf(query: string | SearchText, mode: MatchMode): QueryPlan {
  const read = searchTextOf(query);
  const q = read.text;
  const { words, plain, phrases, asTyped } = wantedOf(read, mode);
  const splits = querySplits(words.slice(0, plain));
  return {
    words,
    phrases,
    allowed: allowedIn(words, 'project_name'),
    everywhere: bitsOf(words, (word) => word.only === undefined),
    splits,
    joins: words.some((word) => word.joining.length > 0),
    all: (1 << words.length) - 1,
    whole: q.trim().toLowerCase(),
    pastedNames: asTyped ? NO_PASTED_NAMES : pastedNameForms(q),
    mode,
    rules: mode,
    writtenOnly: false,
    named: new Map(),
    joiningLengths: joiningLengthsOf(words),
    byTechnology: new Map(),
    byCountry: new Map(),
    typed: [
      ...prefilterOf(words, (word) => word.forms, mode),
      ...splits.map((split) => prefilterForm(split.compact, split.last, mode)),
    ],
    joining: prefilterOf(words, (word) => word.joining, mode),
  };
}

/** The prefilter of the forms `pick` takes of each word of `q` (whether it is the word being typed: the last). */
function prefilterOf(
  words: readonly QueryWord[],
  pick: (word: QueryWord) => readonly Form[],
  rules: TypoRules,
): Prefilter {
  return words.flatMap((word) => pick(word).map((form) => prefilterForm(form, word.last, rules)));
}

const NO_SPLITS: readonly QuerySplit[] = Object.freeze([]);
const NO_PASTED_NAMES: readonly string[] = Object.freeze([]);

/**
 * The plan for a field looked for by its written words only (textFields.ts: the developer and the location by the
 * fuzziness, the reference code as typed): numerals and abbreviations written the other way, joined and split
 * words, dropped letters are the name's only. Its own memo: a word's bits under these rules are not the name's.
 * The prefilter is the name's: it lets through every word the stricter rules could name (it only rules words out).
 */
export function writtenPlanOf(plan: QueryPlan, allowed: number, rules: 'text' | 'exact'): QueryPlan {
  return {
    ...plan,
    allowed,
    splits: NO_SPLITS,
    joins: false,
    rules,
    writtenOnly: true,
    named: new Map(),
  };
}
