// What CHANGELOG.md lets break: the entries under a `### Breaking` heading of a section (`## Unreleased`, or a
// release's `## X.Y.Z - date` while it is being released), and the names they give between backticks. A breaking
// change of the OpenAPI document is allowed when one of those names is its parameter's (`per_page`), its field's
// (its name, `capacity_mw`, or its path in the body, `data[].capacity_mw`) or, for a removed operation or
// response, its path (`/api/v1/ppas/suggest`). The rule is simple on purpose: naming the thing is the decision.
import type { BreakingChange } from './breakingChanges.js';

/** The text of the section `## <heading>` (its heading line starts so: `0.4.0` finds `## 0.4.0 - 2026-12-01`). */
export function changelogSection(changelog: string, heading: string): string | undefined {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => line === `## ${heading}` || line.startsWith(`## ${heading} `));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The entries under a section's `### Breaking` heading (up to the next heading). */
export function breakingEntries(section: string): string {
  const lines = section.split('\n');
  const start = lines.findIndex((line) => /^### Breaking\s*$/.test(line));
  if (start < 0) return '';
  const end = lines.findIndex((line, index) => index > start && /^#{2,3} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The names given between backticks in the `### Breaking` entries of these sections. */
export function namesAllowedToBreak(changelog: string, headings: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const heading of headings) {
    const entries = breakingEntries(changelogSection(changelog, heading) ?? '');
    for (const [, name] of entries.matchAll(/`([^`\n]+)`/g)) names.add(name!.trim());
  }
  return names;
}

export const allowedBy = (change: BreakingChange, names: ReadonlySet<string>): boolean =>
  change.names.some((name) => names.has(name));

/** The released versions, newest first, from the `## X.Y.Z - date` headings. */
export function releasedVersions(changelog: string): string[] {
  return [...changelog.matchAll(/^## (\d+\.\d+\.\d+)\b/gm)].map((match) => match[1]!);
}
