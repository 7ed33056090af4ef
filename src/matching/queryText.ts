// `q` as the search and the highlighter both read it. Plain words are folded (indexContract/text/fold.ts, as the
// indexer folds the documents) and cut at white space; a word without a letter or a digit produces no token: it
// would match nothing and sink the whole query, so it is not looked for.
//
// On top of the plain words, the forms of precise search (docs/api.md, "Search syntax"): "a phrase", -left out,
// a OR b, and the field qualifiers name:, developer:, location:, code:. No input is a syntax error: what is not an
// operator as written is text, and a `q` without operators reads as plain words exactly as before.
import { foldText } from '../../indexContract/text/fold.js';
import type { TextField } from './textFields.js';

/** The words of `q` looked for, folded, in order, read as plain words (no operators). */
export function typedWords(q: string): string[] {
  return wordsOf(q);
}

const HAS_TOKEN = /[\p{L}\p{N}]/u;

/** The folded words of a text that hold a token. */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const word of foldText(text.trim()).split(/\s+/u)) if (HAS_TOKEN.test(word)) words.push(word);
  return words;
}

/** The qualifiers, each the one text field it restricts a term to. */
export const QUALIFIERS = {
  name: 'project_name',
  developer: 'developer',
  location: 'location',
  code: 'reference_code',
} as const satisfies Record<string, TextField['record']>;
export type Qualifier = keyof typeof QUALIFIERS;

/** A word or a phrase of `q`. */
export interface Term {
  /** Folded words: one for a word (or more when folding spaced it), the phrase's for a phrase. */
  words: string[];
  /** Written in quotes: these words in this order, next to each other; no typo, no prefix, no other spelling. */
  phrase: boolean;
  /** The one field it is looked for in (a qualifier); undefined: everywhere `q` looks. */
  field?: TextField['record'];
}

/** A term of `q`: one term, alternatives joined by OR (any of them), or one term left out. */
export interface Clause {
  terms: Term[];
  excluded: boolean;
  /** The last clause looked for, not a phrase: the word still being typed (the prefix rule). */
  typing: boolean;
}

export interface ParsedQuery {
  clauses: Clause[];
  /** No operator is written: the clauses are the plain words, as typedWords() reads them. */
  plain: boolean;
}

/**
 * `q` as a request sent it, read once: its text, and its clauses, parsed on first use and kept. The filters carry
 * it to the query, the highlighter, "did you mean" and the zero-result log, so that none of them reads `q` again.
 */
export class SearchText {
  #parsed: ParsedQuery | undefined;

  constructor(readonly text: string) {}

  get parsed(): ParsedQuery {
    return (this.#parsed ??= parseQuery(this.text));
  }
}

/** `q` as a tool or a test writes it (text), or as a request carries it (read). */
export const searchTextOf = (q: string | SearchText): SearchText =>
  typeof q === 'string' ? new SearchText(q) : q;

/** A term as written, before OR joins terms into clauses. */
interface WrittenTerm {
  text: string;
  phrase: boolean;
  excluded: boolean;
  field?: TextField['record'];
  /** Where it is written in `q`: [start, end) in UTF-16 units, its `-`, qualifier and quotes included. */
  start: number;
  end: number;
}

/** A qualifier right before a word or a phrase: a sticky pattern carries its place between looks, so each parse makes its own. */
const QUALIFIER = '(name|developer|location|code):(?=\\S)';
const SPACE = /\s/u;

/** The terms of `q` as written: "-" only at a term's start, a qualifier right before its word or phrase. */
function writtenTerms(q: string): WrittenTerm[] {
  const terms: WrittenTerm[] = [];
  const qualifierAt = new RegExp(QUALIFIER, 'iy');
  let at = 0;
  while (at < q.length) {
    if (SPACE.test(q[at]!)) {
      at++;
      continue;
    }
    const start = at;
    let excluded = false;
    if (q[at] === '-' && at + 1 < q.length && !SPACE.test(q[at + 1]!)) {
      excluded = true;
      at++;
    }
    let field: TextField['record'] | undefined;
    qualifierAt.lastIndex = at;
    const qualifier = qualifierAt.exec(q);
    if (qualifier) {
      field = QUALIFIERS[qualifier[1]!.toLowerCase() as Qualifier];
      at += qualifier[0].length;
    }
    if (q[at] === '"') {
      // A quote not closed closes at the end of q.
      const close = q.indexOf('"', at + 1);
      const end = close === -1 ? q.length : close;
      terms.push({ text: q.slice(at + 1, end), phrase: true, excluded, field, start, end: end + 1 });
      at = end + 1;
      continue;
    }
    let end = at;
    while (end < q.length && !SPACE.test(q[end]!)) end++;
    terms.push({ text: q.slice(at, end), phrase: false, excluded, field, start, end });
    at = end;
  }
  return terms;
}

/** Whether a written term is an OR between two terms looked for (not at an end, not doubled, not by a `-`). */
function isOr(terms: readonly WrittenTerm[], index: number): boolean {
  const isWord = (term: WrittenTerm | undefined) =>
    term !== undefined && !term.phrase && !term.excluded && term.field === undefined;
  const orWord = (term: WrittenTerm | undefined) => isWord(term) && term!.text === 'OR';
  const before = terms[index - 1];
  const after = terms[index + 1];
  return (
    orWord(terms[index]) &&
    before !== undefined &&
    after !== undefined &&
    !before.excluded &&
    !after.excluded &&
    !orWord(before) &&
    !orWord(after)
  );
}

/** What every operator is written with: a q without any of these is plain words (most are). */
const MAY_HOLD_OPERATORS = /["\-:]|OR/;

/** `q` read into clauses. */
export function parseQuery(q: string): ParsedQuery {
  const written = MAY_HOLD_OPERATORS.test(q) ? writtenTerms(q) : [];
  const operators = written.some(
    (term, index) => term.phrase || term.excluded || term.field !== undefined || isOr(written, index),
  );
  const clauses: Clause[] = operators ? clausesOf(written).clauses : [];
  // Operators that read as nothing ("-- !!", a lone quote) leave plain words, read as ever.
  const plain = clauses.every(isPlainWord);
  if (plain) {
    clauses.length = 0;
    for (const word of wordsOf(q)) {
      clauses.push({ terms: [{ words: [word], phrase: false }], excluded: false, typing: false });
    }
  }
  markTyping(clauses);
  return { clauses, plain };
}

/** The last clause looked for, unless a phrase, is the word still being typed (the prefix rule). */
function markTyping(clauses: Clause[]): void {
  const last = clauses[clauses.findLastIndex((clause) => !clause.excluded)];
  if (last && last.terms.some((term) => !term.phrase)) last.typing = true;
}

/**
 * The clauses of terms as written: OR joins its neighbours into one clause. `from`: for each clause, the written
 * term it began with.
 */
function clausesOf(written: readonly WrittenTerm[]): { clauses: Clause[]; from: number[] } {
  const clauses: Clause[] = [];
  const from: number[] = [];
  let joinNext = false;
  for (let index = 0; index < written.length; index++) {
    if (isOr(written, index)) {
      joinNext = clauses.length > 0;
      continue;
    }
    const { text, phrase, excluded, field } = written[index]!;
    const words = wordsOf(text);
    if (words.length === 0) {
      joinNext = false;
      continue;
    }
    // A word that folds into several (rare) is that many terms; a phrase keeps its words together.
    const terms: Term[] = phrase
      ? [{ words, phrase, field }]
      : words.map((word) => ({ words: [word], phrase, field }));
    if (joinNext) clauses.at(-1)!.terms.push(...terms);
    else if (phrase || excluded) {
      clauses.push({ terms, excluded, typing: false });
      from.push(index);
    } else {
      for (const term of terms) {
        clauses.push({ terms: [term], excluded, typing: false });
        from.push(index);
      }
    }
    joinNext = false;
  }
  return { clauses, from };
}

/** A plain word of `q` as written: what a rewrite of `q` may change, keeping everything else as it was typed. */
export interface WrittenWord {
  /** Its folded words (one, unless folding spaced it). */
  words: string[];
  /** Where it is written in `q`: [start, end) in UTF-16 units. */
  start: number;
  end: number;
  /** The word still being typed (the prefix rule). */
  typing: boolean;
}

/** The plain words of `q` as written, in order, and whether `q` looks for anything besides them. */
export function writtenPlainWords(query: string | SearchText): {
  words: WrittenWord[];
  othersLookedFor: boolean;
} {
  const { text: q, parsed } = searchTextOf(query);
  if (parsed.plain) return { words: writtenWordsOf(q), othersLookedFor: false };
  const written = writtenTerms(q);
  const { clauses, from } = clausesOf(written);
  markTyping(clauses);
  const words: WrittenWord[] = [];
  clauses.forEach((clause, index) => {
    if (!isPlainWord(clause)) return;
    const term = written[from[index]!]!;
    const last = words.at(-1);
    // A word that folds into several is that many clauses of one written word.
    if (last !== undefined && last.start === term.start) last.words.push(...clause.terms[0]!.words);
    else words.push({ words: [...clause.terms[0]!.words], start: term.start, end: term.end, typing: false });
    if (clause.typing) words.at(-1)!.typing = true;
  });
  return { words, othersLookedFor: clauses.some((clause) => !clause.excluded && !isPlainWord(clause)) };
}

/** The words of `q` read as typed text (every run of characters between spaces), each with its place. */
export function writtenWordsOf(q: string): WrittenWord[] {
  const words: WrittenWord[] = [];
  for (const match of q.matchAll(/\S+/gu)) {
    const folded = wordsOf(match[0]);
    if (folded.length === 0) continue;
    words.push({ words: folded, start: match.index, end: match.index + match[0].length, typing: false });
  }
  const last = words.at(-1);
  if (last) last.typing = true;
  return words;
}

/** Every word `q` names, counted for its bounds: the words of phrases, alternatives and exclusions included. */
export const wordCount = (parsed: ParsedQuery): number =>
  parsed.clauses.reduce((sum, clause) => sum + clause.terms.reduce((n, term) => n + term.words.length, 0), 0);

/** Whether `q` looks for anything (a `q` that only leaves out orders as without one). */
export const looksFor = (parsed: ParsedQuery): boolean => parsed.clauses.some((clause) => !clause.excluded);

/** The words of a plain q (parsed.plain), in order. */
export const plainWordsOf = (parsed: ParsedQuery): string[] =>
  parsed.clauses.map((clause) => clause.terms[0]!.words[0]!);

/** A clause that is one plain word looked for everywhere: the forgiving search's own kind of term. */
export const isPlainWord = (clause: Clause): boolean =>
  !clause.excluded &&
  clause.terms.length === 1 &&
  !clause.terms[0]!.phrase &&
  clause.terms[0]!.field === undefined;
