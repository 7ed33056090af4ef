// How a name compares when a spreadsheet's column is reconciled (the W3C Reconciliation API, src/operations/
// reconcile*.ts): the contract says legal-form words and punctuation never count against a name, so both sides are
// reduced to their comparable words first; the similarity of what is left is one number between 0 and 1 that a
// user can recompute (docs/reconciliation.md).
import { foldText } from '../../indexContract/text/fold.js';
import { editDistance } from './editDistance.js';

/**
 * The contract's legal-form words (Ltd, Limited, S.A., SA, PLC, plc, GmbH, Inc., LLC, SAS, A.Ş., Pty, Co.), as they
 * read once folded and their dots taken out ("S.A." → "sa", "A.Ş." → "as").
 */
export const LEGAL_FORM_WORDS: ReadonlySet<string> = new Set([
  'ltd',
  'limited',
  'sa',
  'plc',
  'gmbh',
  'inc',
  'llc',
  'sas',
  'as',
  'pty',
  'co',
]);

/** A dot between two letters joins them: "S.A." is the word "SA", not "S" and "A". */
const DOT_BETWEEN_LETTERS = /(?<=\p{L})\.(?=\p{L})/gu;
/** Anything but a letter or a digit separates words. */
const NOT_A_WORD = /[^\p{L}\p{N}]+/gu;

/**
 * The words a name is compared by: folded (case, accents), punctuation dropped, legal-form words dropped (all of
 * them only when nothing else is left: "SA" alone is still a name).
 */
export function comparableWords(name: string): string[] {
  const words = foldText(name)
    .replace(DOT_BETWEEN_LETTERS, '')
    .split(NOT_A_WORD)
    .filter((word) => word !== '');
  const kept = words.filter((word) => !LEGAL_FORM_WORDS.has(word));
  return kept.length > 0 ? kept : words;
}

/** The comparable words joined by one space: what a name is scored by. */
export const comparableName = (name: string): string => comparableWords(name).join(' ');

/** 1 − edit distance ÷ the longer length: 1 for equal texts, 0 for nothing in common (two empty texts are equal). */
function editSimilarity(a: string, b: string): number {
  const longer = Math.max([...a].length, [...b].length);
  if (longer === 0) return 1;
  return 1 - editDistance(a, b, longer) / longer;
}

/**
 * How alike two names are, 0–1, on their comparable words: the edit similarity of the words as written, or of the
 * words in alphabetical order when that is higher ("Power Acme" is "Acme Power"); spaces do not count ("Sun Power"
 * is "SunPower"). Rounded to 3 decimals, as the answer shows it.
 */
export function nameSimilarity(a: string, b: string): number {
  const x = comparableWords(a);
  const y = comparableWords(b);
  const asWritten = editSimilarity(x.join(''), y.join(''));
  const sorted = editSimilarity([...x].sort().join(''), [...y].sort().join(''));
  return Math.round(Math.max(asWritten, sorted) * 1000) / 1000;
}
