// A `q` pasted from a listed name: the forms of it that are compared with a name's folded text as a whole
// (name_folded.exact, a keyword of the folded name). The search asks for them (src/queries/textQuery.ts) and the
// highlighter marks a name equal to one of them as one span, so both read a pasted name alike.
import { foldText } from '../../indexContract/text/fold.js';

/** `q` folded and trimmed, as written and with every run of spaces as one: "spaces aside", either way. */
export function pastedNameForms(q: string): string[] {
  const written = foldText(q).trim();
  const collapsed = written.replace(/\s+/gu, ' ');
  return collapsed === written ? [written] : [written, collapsed];
}
