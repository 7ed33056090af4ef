// The highlights check of issue 46: for a query whose expected PPA was returned, its `highlights` (as the API
// presents them with highlight=true) must be well formed and mark what the query named. "Named" is judged here
// independently of src/matching/highlight/, by plainer rules (folded words, edit distance, compact forms), so
// that the check is not the implementation checking itself.
import { compactForm } from '../../indexContract/text/canonical.js';
import { foldText } from '../../indexContract/text/fold.js';
import { editDistance } from '../../src/matching/editDistance.js';
import {
  HIGHLIGHT_TEXT_FIELDS,
  type Highlights,
  type Span,
} from '../../src/matching/highlight/itemHighlights.js';
import type { QueryClass } from './queries.js';

/** The classes where every name word the query names must be marked: exact, accents, typos, prefixes. */
export const EVERY_WORD_CLASSES: ReadonlySet<QueryClass> = new Set<QueryClass>([
  'exact',
  'accents_stripped',
  'capitals',
  'padded',
  'typo',
  'typing_prefix',
  'first_letter_typo',
  'suggest_typing',
  'suggest_typo',
]);

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

interface Word {
  start: number;
  end: number;
  folded: string;
}

function wordsOf(value: string): Word[] {
  return [...value.matchAll(WORD)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    folded: foldText(match[0]),
  }));
}

const letters = (text: string): number => [...text].length;

/** The query's folded words (letters and digits). */
function queryTokens(q: string): string[] {
  return foldText(q).match(WORD) ?? [];
}

/** Loosely: a word of q is this word, a typo of it, its start, or the word is inside a joined or written-out q. */
function looselyNamed(word: Word, tokens: readonly string[], qCompact: string): boolean {
  const compact = compactForm(word.folded);
  return tokens.some(
    (token) =>
      token === word.folded ||
      (letters(token) >= 3 && (word.folded.startsWith(token) || token.startsWith(word.folded))) ||
      (letters(token) >= 4 && editDistance(token, word.folded, 2) <= 2) ||
      (compact !== '' && letters(compact) >= 2 && qCompact.includes(compact)) ||
      (compact !== '' && letters(token) >= 2 && compact.includes(token)),
  );
}

/** Strictly: a word of q is this word, one typo of it (from five letters), or (the last word) its start. */
function strictlyNamed(word: Word, tokens: readonly string[]): boolean {
  return tokens.some((token, index) => {
    if (token === word.folded) return true;
    if (index === tokens.length - 1 && word.folded.startsWith(token)) return true;
    return letters(token) >= 5 && letters(word.folded) >= 5 && editDistance(token, word.folded, 1) <= 1;
  });
}

const covered = (word: Word, spans: readonly Span[]): boolean =>
  spans.some(([start, end]) => start < word.end && end > word.start);

/** Whether spans are sorted, apart, and inside a value of `length` UTF-16 units. */
export function spansWellFormed(spans: readonly Span[], length: number): boolean {
  return spans.every(
    ([start, end], index) =>
      Number.isInteger(start) &&
      Number.isInteger(end) &&
      start >= 0 &&
      start < end &&
      end <= length &&
      (index === 0 || start > (spans[index - 1] as Span)[1]),
  );
}

/** The check of one query's expected item. */
export function highlightsPass(
  queryClass: QueryClass,
  q: string,
  item: Partial<Record<(typeof HIGHLIGHT_TEXT_FIELDS)[number], string | null>>,
  highlights: Highlights | undefined,
): boolean {
  if (highlights === undefined) return false;
  const tokens = queryTokens(q);
  const qCompact = compactForm(q);
  let namedAndCovered = highlights.technology === true || highlights.country_code === true;
  for (const field of HIGHLIGHT_TEXT_FIELDS) {
    const spans = highlights[field];
    if (spans === undefined) continue;
    const value = item[field];
    if (typeof value !== 'string' || !spansWellFormed(spans, value.length)) return false;
    if (wordsOf(value).some((word) => covered(word, spans) && looselyNamed(word, tokens, qCompact))) {
      namedAndCovered = true;
    }
  }
  if (!namedAndCovered) return false;
  if (EVERY_WORD_CLASSES.has(queryClass) && typeof item.project_name === 'string') {
    const spans = highlights.project_name ?? [];
    return wordsOf(item.project_name).every((word) => !strictlyNamed(word, tokens) || covered(word, spans));
  }
  return true;
}
