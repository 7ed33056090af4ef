// Counterparties as the roll-ups group them and OCDS names them as parties: a developer split into the members of
// its consortium, and a name folded into the key its group is known by. Shared by the indexer (which writes the
// group keys) and the API (OCDS's suppliers), so that a member is the same in both.
import { foldText } from './text/fold.js';

/**
 * `/` separates members unless a single letter stands on both sides of it: "A/S", "S/A" and "N/A" stay whole,
 * "Engie/Meridiam" and "Engie / Meridiam" split.
 */
const MEMBER_SEPARATOR = /;|(?<!(?:^|[^\p{L}])\p{L})\/|\/(?!\p{L}(?:[^\p{L}]|$))/u;
/** A trailing share in parentheses: "Meridiam (54.9%)", "Engie (40 %)". */
const TRAILING_SHARE = /\s*\(\s*\d+(?:[.,]\d+)?\s*%\s*\)\s*$/u;
const SPACES = /\s+/gu;

/** The key a name groups under: case, accents and runs of spaces aside ("SÃO  Energia" and "Sao Energia" are one). */
export function groupKey(name: string): string {
  return foldText(name).replace(SPACES, ' ').trim();
}

/**
 * The members of a developer's consortium, each once (by group key, the first spelling kept), in the order written:
 * the parts separated by `;`, or by `/` unless a single letter stands on both sides of it; each trimmed, a trailing
 * share in parentheses dropped. A developer without a separator is one member.
 */
export function consortiumMembers(developer: string): string[] {
  const members = new Map<string, string>();
  for (const part of developer.split(MEMBER_SEPARATOR)) {
    const member = part.replace(TRAILING_SHARE, '').replace(SPACES, ' ').trim();
    const key = groupKey(member);
    if (key !== '' && !members.has(key)) members.set(key, member);
  }
  return [...members.values()];
}
