// Text from a source file on the operator's terminal: a slug or a value may hold escape sequences (ANSI colours,
// cursor moves, a terminal title, bidi overrides) that must reach the screen as visible text, not act on it.

// C0 and C1 controls, DEL, line/paragraph separators and the bidi embedding, override and isolate marks.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with every control and bidi character written as a visible \u{…} escape. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (character) => `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`);
}

/** A value from the source, quoted and made terminal-safe: "kahone-solar". */
export function quoted(text: string): string {
  return `"${terminalSafe(text).replace(/"/g, '\\"')}"`;
}
