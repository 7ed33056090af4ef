// What else a `q` that found nothing could have meant: the matching model's rewrites of it, best first, for "did
// you mean" (docs/api.md). Only its plain words change (wordChoices.ts: a nearer word the index holds, a word split
// or two joined, a word left out); its phrases, exclusions, alternatives and qualifiers stay as written. A word
// nothing meets must change; when every word could be met, one word changes. The one a person most likely meant
// comes first: the fewest words changed, words the index holds kept before words it does not, the fewest edits,
// then the most common words. Which of them finds something is the search's to say (src/queries/didYouMean.ts).
import { DistanceRows } from '../editDistance.js';
import { searchTextOf, writtenPlainWords, writtenWordsOf, type SearchText } from '../queryText.js';
import type { MatchMode } from '../typoRules.js';
import type { Vocabulary } from '../vocabulary.js';
import { judgeWords, type JudgedWord, type WordChoice } from './wordChoices.js';

/** Words a rewrite changes at most: past this, `q` is too far from anything the index holds to say what it meant. */
export const MAX_CHANGED_WORDS = 3;

/** A rewrite of `q`: the words chosen otherwise (by their index among the plain words), and its rank. */
interface Rewrite {
  q: string;
  changes: number;
  /** Changed words the index holds as typed (a word it does not hold is the likelier slip). */
  knownChanged: number;
  edits: number;
  /** How common the words written are: the sum of log(1 + PPAs holding each). */
  commonness: number;
}

/**
 * The rewrites of `q`, best first, at most `limit`; none when the vocabulary is empty or `q` has no plain word.
 * `mode`: the list reads `q` by its operators, suggest as typed text.
 */
export function rewritesOf(
  query: string | SearchText,
  vocabulary: Vocabulary,
  mode: MatchMode,
  limit: number,
): string[] {
  if (vocabulary.size === 0) return [];
  const read = searchTextOf(query);
  const q = read.text;
  const { words, othersLookedFor } =
    mode === 'suggest' ? { words: writtenWordsOf(q), othersLookedFor: false } : writtenPlainWords(read);
  if (words.length === 0) return [];
  const judged = judgeWords(q, words, vocabulary, mode, new DistanceRows());
  const hopeless = judged.flatMap((word, index) => (word.hopeless ? [index] : []));
  if (hopeless.length > MAX_CHANGED_WORDS) return [];
  const rewrites = new Map<string, Rewrite>();
  const consider = (chosen: ReadonlyMap<number, WordChoice>) => {
    const rewrite = rewriteOf(q, judged, chosen, othersLookedFor);
    const kept = rewrite && rewrites.get(rewrite.q);
    if (rewrite && (kept === undefined || rank(rewrite, kept) < 0)) rewrites.set(rewrite.q, rewrite);
  };
  if (hopeless.length > 0) everyWayToChange(judged, hopeless, new Map(), consider);
  else
    judged.forEach((word, index) => word.choices.forEach((choice) => consider(new Map([[index, choice]]))));
  return [...rewrites.values()]
    .sort(rank)
    .slice(0, limit)
    .map((rewrite) => rewrite.q);
}

/** The order of rewrites: the fewest changes, known words kept, the fewest edits, the most common words, by text. */
function rank(a: Rewrite, b: Rewrite): number {
  return (
    a.changes - b.changes ||
    a.knownChanged - b.knownChanged ||
    a.edits - b.edits ||
    b.commonness - a.commonness ||
    (a.q < b.q ? -1 : a.q > b.q ? 1 : 0)
  );
}

/** Every way to change each of the words `must` names (one choice each; a join also takes the next word). */
function everyWayToChange(
  judged: readonly JudgedWord[],
  must: readonly number[],
  chosen: Map<number, WordChoice>,
  consider: (chosen: ReadonlyMap<number, WordChoice>) => void,
): void {
  const [index, ...rest] = must;
  if (index === undefined) {
    consider(chosen);
    return;
  }
  // Joined to the word before it: changed already.
  if (chosen.get(index - 1)?.span === 2) {
    everyWayToChange(judged, rest, chosen, consider);
    return;
  }
  for (const choice of judged[index]!.choices) {
    if (choice.span === 2 && chosen.has(index + 1)) continue;
    chosen.set(index, choice);
    everyWayToChange(judged, rest, chosen, consider);
    chosen.delete(index);
  }
}

/** `q` with the chosen words written otherwise, ranked; undefined when it would look for nothing. */
function rewriteOf(
  q: string,
  judged: readonly JudgedWord[],
  chosen: ReadonlyMap<number, WordChoice>,
  othersLookedFor: boolean,
): Rewrite | undefined {
  const choiceAt = (index: number) =>
    chosen.get(index) ?? (chosen.get(index - 1)?.span === 2 ? chosen.get(index - 1) : undefined);
  const left = judged.filter((_, index) => choiceAt(index)?.words.length !== 0);
  const asTyped = judged.filter((_, index) => choiceAt(index) === undefined);
  // It still looks for something, and (of two words or more, alone) keeps one as typed: a `q` every word of
  // which must change is not one a rewrite can say the meaning of.
  if (!othersLookedFor && (left.length === 0 || (judged.length > 1 && asTyped.length === 0)))
    return undefined;
  let written = '';
  let at = 0;
  const rewrite: Rewrite = { q: '', changes: 0, knownChanged: 0, edits: 0, commonness: 0 };
  for (const [index, choice] of [...chosen].sort(([a], [b]) => a - b)) {
    const place = judged[index]!.written;
    const end = choice.span === 2 ? judged[index + 1]!.written.end : place.end;
    const before = q.slice(at, place.start);
    // A word left out takes the spaces before it along (those after it, at the start of `q`).
    written +=
      choice.words.length === 0 ? before.trimEnd() : before + cased(q.slice(place.start, end), choice);
    at = end;
    rewrite.changes++;
    rewrite.knownChanged += judged[index]!.known ? 1 : 0;
    rewrite.edits += choice.edits;
    rewrite.commonness += Math.log1p(choice.count);
  }
  rewrite.q = (written + q.slice(at)).trim();
  return rewrite.q === q.trim() ? undefined : rewrite;
}

/**
 * The words of a choice as `typed` was written: in capitals, capitalized, or as folded. Never an upper-case OR,
 * which the rewritten `q` would read as an operator.
 */
function cased(typed: string, { words }: WordChoice): string {
  const capitals = typed.toUpperCase() === typed && typed.toLowerCase() !== typed;
  const capitalized = !capitals && typed[0] !== undefined && typed[0] !== typed[0].toLowerCase();
  return words
    .map((word) => {
      if (capitals && word !== 'or') return word.toUpperCase();
      if (capitalized) return word.charAt(0).toUpperCase() + word.slice(1);
      return word;
    })
    .join(' ');
}
