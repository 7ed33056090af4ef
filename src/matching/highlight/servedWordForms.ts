// What a word of a served value may be named by, whatever value it is in: its written, compact and canonical
// forms (indexContract/text/canonical.ts), looked up once and kept across answers (words recur). What a word's
// forms are never changes, so they are all that is kept: what the words of one `q` name is the answer's own
// (QueryPlan.named).
import { canonicalOfTokens, writtenOfTokens } from '../../../indexContract/text/canonical.js';
import { foldText } from '../../../indexContract/text/fold.js';
import { standardTokens } from '../../../indexContract/text/tokenizer.js';
import { formOf, type Form } from '../form.js';
import { remembered } from './boundedMemo.js';

export interface WordForms {
  /** Folded, inner punctuation dropped ("P.E." → pe). */
  readonly written: Form;
  /** The canonical words (numerals as digits, abbreviations written out) joined. */
  readonly compact: Form;
  /** Every form a typed word may name: written, compact, each canonical word (no repeats). */
  readonly targets: readonly Form[];
}

/** The forms of served words, by the word as served: bounded (boundedMemo.ts). */
const WORD_FORMS = new Map<string, WordForms>();
const MAX_WORD_FORMS = 20_000;

/** Empties the kept words (for a benchmark of the presenter at first sight). */
export function forgetHighlightCaches(): void {
  WORD_FORMS.clear();
}

const ALPHANUMERIC = /^[A-Za-z0-9]+$/;

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
  return { written: targets[0]!, compact: compactForm, targets };
}

/** The forms of a served word (its text as served). */
export const formsOf = (text: string): WordForms => remembered(WORD_FORMS, MAX_WORD_FORMS, text, wordFormsOf);
