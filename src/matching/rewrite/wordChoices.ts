// What a plain word of `q` could have been instead, among the words the index holds (vocabulary.ts): a word a few
// more edits away than the forgiving match allows, two or three words it joins, the next word joined to it, or
// nothing (a word the data does not hold, dropped). And whether it must change at all: a word the forgiving match
// can meet as typed (a word the index holds, one within its typos, the start of one, a numeral or an abbreviation
// written the other way, two words joined) may be right as it is.
import { canonicalWords } from '../../../indexContract/text/canonical.js';
import { standardTokens } from '../../../indexContract/text/tokenizer.js';
import { atMostBits, formOf, type Form } from '../form.js';
import { boundedDistance, boundedStartDistance, type DistanceRows } from '../editDistance.js';
import type { WrittenWord } from '../queryText.js';
import {
  allowedTypos,
  JOINED_MIN_LETTERS,
  MAX_TYPOS,
  ONE_TYPO,
  PREFIX_TYPO_MIN_LETTERS,
  type MatchMode,
} from '../typoRules.js';
import type { Vocabulary, VocabularyWord } from '../vocabulary.js';

/** A way to write a word of `q` (or it and the next one) otherwise. */
export interface WordChoice {
  /** The folded words written instead: one (a nearer word, or two joined), two or three (split), none (dropped). */
  words: string[];
  /** How many written words it stands for: the word, or the word and the next (joined). */
  span: 1 | 2;
  /** Edits from what was typed: letters changed; a space put in or taken out; every letter of a dropped word. */
  edits: number;
  /** How common what is written is: the fewest active PPAs holding one of its words (0: dropped). */
  count: number;
}

/** A plain word of `q` judged against the vocabulary. */
export interface JudgedWord {
  written: WrittenWord;
  /** Its one token, when it is one (most words): only those are respelled. */
  word: string | undefined;
  /** The index holds it (every token of it) as typed. */
  known: boolean;
  /** Nothing the forgiving match allows meets it: it must change for `q` to find anything. */
  hopeless: boolean;
  choices: WordChoice[];
}

/** Typed words this short are never respelled (left out at most). */
const MIN_REWRITE_LETTERS = 3;

/**
 * Edits a rewrite may make in a typed word of `letters` letters to make one of `targetLetters`: one more than the
 * forgiving match allows there (typoRules.ts, the list's rules), never more than MAX_TYPOS + 1.
 */
export function rewriteEdits(letters: number, targetLetters: number): number {
  if (letters < MIN_REWRITE_LETTERS) return 0;
  return Math.min(allowedTypos(letters, targetLetters, 'list') + 1, MAX_TYPOS + 1);
}

/** Nearer words kept per typed word: the fewest edits first, then the most common. */
const NEARER_WORDS = 4;
/** Splits kept per typed word: the most common first. */
const SPLITS = 2;
/** A part of a split word has this many letters at least. */
const MIN_PART_LETTERS = 2;
/** A qualifier in a word would make the rewritten `q` read it as one (name:…): such words are never offered. */
const QUALIFIER_LIKE = /:/u;

/** The words `typed` could have been: within its rewrite edits (the word being typed: of a start, too). */
function nearerWords(
  typed: Form,
  typing: boolean,
  vocabulary: Vocabulary,
  rows: DistanceRows,
): { word: VocabularyWord; edits: number }[] {
  const found: { word: VocabularyWord; edits: number }[] = [];
  const most = rewriteEdits(typed.letters, Infinity);
  if (most === 0) return found;
  const startLimit = rewriteEdits(typed.letters, typed.letters);
  const highest = typing ? vocabulary.maxLetters : typed.letters + most;
  for (let letters = Math.max(1, typed.letters - most); letters <= highest; letters++) {
    const limit = rewriteEdits(typed.letters, letters);
    const nearLength = Math.abs(letters - typed.letters) <= limit;
    const { words, letterBits } = vocabulary.withLetters(letters);
    for (let index = 0; index < words.length; index++) {
      // Letters one word has and the other lacks take an edit each (the start of a longer word: only typed ones).
      const bits = letterBits[index]!;
      if (!atMostBits(typed.letterBits & ~bits, limit)) continue;
      const near = nearLength && atMostBits(bits & ~typed.letterBits, limit);
      const word = words[index]!;
      const target = word.form;
      // The start of a longer word, its first letter as typed: by the edits a word as long as the typed one may take.
      const starts =
        typing && letters > typed.letters && target.text.charCodeAt(0) === typed.text.charCodeAt(0);
      if ((!near && !starts) || target.text === typed.text || QUALIFIER_LIKE.test(target.text)) continue;
      let edits = near ? boundedDistance(rows, typed, target, limit) : limit + 1;
      if (starts && edits > limit) {
        const startEdits = boundedStartDistance(rows, typed, target, startLimit);
        if (startEdits <= startLimit) edits = startEdits;
      }
      if (edits <= limit) found.push({ word, edits });
    }
  }
  return found.sort(
    (a, b) =>
      a.edits - b.edits || b.word.count - a.word.count || (a.word.form.text < b.word.form.text ? -1 : 1),
  );
}

/** The ways to cut `word` into two or three words the index holds, the most common first. */
function splitsOf(word: string, vocabulary: Vocabulary): WordChoice[] {
  const letters = [...word];
  const part = (from: number, to: number) => letters.slice(from, to).join('');
  const splits: WordChoice[] = [];
  for (let i = MIN_PART_LETTERS; i <= letters.length - MIN_PART_LETTERS; i++) {
    const first = part(0, i);
    const firstCount = vocabulary.count(first);
    if (firstCount === 0) continue;
    const rest = part(i, letters.length);
    const restCount = vocabulary.count(rest);
    if (restCount > 0)
      splits.push({ words: [first, rest], span: 1, edits: 1, count: Math.min(firstCount, restCount) });
    for (let j = i + MIN_PART_LETTERS; j <= letters.length - MIN_PART_LETTERS; j++) {
      const counts = [firstCount, vocabulary.count(part(i, j)), vocabulary.count(part(j, letters.length))];
      if (counts.every((count) => count > 0)) {
        const words = [first, part(i, j), part(j, letters.length)];
        splits.push({ words, span: 1, edits: 2, count: Math.min(...counts) });
      }
    }
  }
  return splits.sort((a, b) => a.edits - b.edits || b.count - a.count).slice(0, SPLITS);
}

/** Whether the forgiving match may meet `typed` as it is (matching/typoRules.ts, the list's or suggest's rules). */
function forgiven(
  typed: Form,
  typing: boolean,
  near: readonly { word: VocabularyWord; edits: number }[],
  splits: boolean,
  { vocabulary, mode, rows }: Judging,
): boolean {
  const word = typed.text;
  if (typing && vocabulary.holdsStart(word)) return true;
  // A numeral or an abbreviation written the other way: its canonical words are what is looked for.
  if (canonicalWords(word).join(' ') !== word) return true;
  for (const { word: target, edits } of near) {
    if (edits <= allowedTypos(typed.letters, target.form.letters, mode)) return true;
    if (
      typing &&
      typed.letters >= PREFIX_TYPO_MIN_LETTERS &&
      target.form.text[0] === word[0] &&
      boundedStartDistance(rows, typed, target.form, ONE_TYPO) <= ONE_TYPO
    )
      return true;
  }
  return mode === 'list' && typed.letters >= JOINED_MIN_LETTERS && splits;
}

/** What a word is judged by: the vocabulary, the rules of the search, the answer's distance rows. */
interface Judging {
  vocabulary: Vocabulary;
  mode: MatchMode;
  rows: DistanceRows;
}

/**
 * Each plain word of `q` judged, with its choices: the nearer words, the splits, the next word joined to it, and
 * (when `q` would still look for something) leaving it out.
 */
export function judgeWords(
  q: string,
  written: readonly WrittenWord[],
  vocabulary: Vocabulary,
  mode: MatchMode,
  rows: DistanceRows,
): JudgedWord[] {
  const judged = written.map((place): JudgedWord => {
    const tokens = place.words.flatMap((word) => standardTokens(word));
    const word = tokens.length === 1 ? tokens[0] : undefined;
    const known = tokens.length > 0 && tokens.every((token) => vocabulary.count(token) > 0);
    const letters = tokens.reduce((sum, token) => sum + [...token].length, 0);
    const drop: WordChoice = { words: [], span: 1, edits: Math.max(letters, 1), count: 0 };
    if (word === undefined || known || !/\p{L}/u.test(word)) {
      return { written: place, word, known, hopeless: false, choices: [drop] };
    }
    const typed = formOf(word);
    const near = nearerWords(typed, place.typing, vocabulary, rows);
    const choices: WordChoice[] = near.slice(0, NEARER_WORDS).map(({ word: target, edits }) => ({
      words: [target.form.text],
      span: 1,
      edits,
      count: target.count,
    }));
    const splits = splitsOf(word, vocabulary);
    choices.push(...splits, drop);
    const hopeless = !forgiven(typed, place.typing, near, splits.length > 0, { vocabulary, mode, rows });
    return { written: place, word, known, hopeless, choices };
  });
  addJoins(q, judged, vocabulary);
  return judged;
}

/** A word and the next written as one, where the index holds them as one word ("kafu e" → "kafue"). */
function addJoins(q: string, judged: JudgedWord[], vocabulary: Vocabulary): void {
  for (let index = 0; index + 1 < judged.length; index++) {
    const [first, next] = [judged[index]!, judged[index + 1]!];
    if (first.word === undefined || next.word === undefined) continue;
    // Only words side by side in `q`, nothing but spaces between them.
    if (q.slice(first.written.end, next.written.start).trim() !== '') continue;
    const joined = `${first.word}${next.word}`;
    const count = vocabulary.count(joined);
    if (count > 0) first.choices.unshift({ words: [joined], span: 2, edits: 1, count });
  }
}
