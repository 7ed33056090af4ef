// The metric names a PromQL expression reads, for the tests that check the rules and the dashboard name only what
// the API exports. A lexical pass, not a parser: promtool checks the syntax; this finds the bare identifiers that
// are neither functions, aggregations, keywords nor labels.

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool']);
const OPERATORS = new Set(['and', 'or', 'unless', 'offset', 'atan2', 'inf', 'nan']);

export function metricNames(expr: string): string[] {
  const text = expr
    // strings (a label value may look like anything)
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    // label matchers and ranges
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    // label lists: by (…), without (…), on (…), ignoring (…), group_left (…), group_right (…)
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of text.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const word = match[0];
    const at = match.index ?? 0;
    // part of a number (1e3) or a duration (5m)
    if (/[0-9.]/.test(text[at - 1] ?? '')) continue;
    // a function or an aggregation
    if (
      text
        .slice(at + word.length)
        .trimStart()
        .startsWith('(')
    )
      continue;
    if (KEYWORDS.has(word) || OPERATORS.has(word.toLowerCase())) continue;
    names.add(word);
  }
  return [...names];
}
