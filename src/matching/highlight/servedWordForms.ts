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

/** At most this many served words' forms are kept (then they are emptied at once: boundedMemo.ts). */
export const MAX_WORD_FORMS = 20_000;

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

/**
 * The forms of served words, by the word as served, kept across answers: the app owns one (src/app.ts makes it
 * with the operations' dependencies, so it goes with the app), bounded by MAX_WORD_FORMS.
 */
export class ServedWordForms {
  private readonly memo = new Map<string, WordForms>();

  constructor(private readonly max: number = MAX_WORD_FORMS) {}

  /** The forms of a served word (its text as served). */
  formsOf(text: string): WordForms {
    return remembered(this.memo, this.max, text, wordFormsOf);
  }

  /** Empties the kept words (a benchmark of the presenter at first sight). */
  clear(): void {
    this.memo.clear();
  }
}
