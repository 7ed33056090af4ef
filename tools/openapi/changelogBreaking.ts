// What CHANGELOG.md lets break: the entries under a `### Breaking` heading of a section (`## Unreleased`, or a
// release's `## X.Y.Z - date` while it is being released). Each entry is a waiver of one break, in the form
//
//   - `<operation>` `<name>` <kind>: why, for the reader
//
// the operation as its operationId (`listPpas`) or `METHOD /path` (`GET /api/v1/ppas`); the name as the
// BreakingChange names it (a parameter, `year`; a field, `capacity_mw` or its path `data[].capacity_mw`; the path,
// for a removed operation or response); the kind one of KINDS. It allows exactly that break: the same name broken
// on another operation, or broken another way, is not allowed by it (a waiver of `year` on the list says nothing of
// the statistics). A line under `### Breaking` that starts an entry (`- `) but not in this form is malformed.
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

/** What a break did: removed; made required; made optional (a response field); narrowed (a request's values); type. */
export const KINDS = ['removed', 'required', 'optional', 'narrowed', 'type'] as const;
export type BreakKind = (typeof KINDS)[number];

/** One entry of `### Breaking`: the break it allows. */
export interface Waiver {
  /** As written: an operationId or `METHOD /path`. */
  operation: string;
  name: string;
  kind: BreakKind;
}

const ENTRY = new RegExp(`^- \`([^\`\\n]+)\` \`([^\`\\n]+)\` (${KINDS.join('|')})(?=[:.,;\\s]|$)`);

/** The entries (`- ` lines) under `### Breaking` in these sections: their waivers, and the lines not in the form. */
export function breakingWaivers(
  changelog: string,
  headings: readonly string[],
): { waivers: Waiver[]; malformed: string[] } {
  const waivers: Waiver[] = [];
  const malformed: string[] = [];
  for (const heading of headings) {
    const entries = breakingEntries(changelogSection(changelog, heading) ?? '');
    for (const line of entries.split('\n').filter((each) => each.startsWith('- '))) {
      const match = ENTRY.exec(line);
      if (match)
        waivers.push({ operation: match[1]!.trim(), name: match[2]!.trim(), kind: match[3] as BreakKind });
      else malformed.push(line);
    }
  }
  return { waivers, malformed };
}

/** The kind of a BreakingChange, from its `change` (breakingChanges.ts's wording). */
export function kindOf(change: BreakingChange): BreakKind {
  const what = change.change;
  if (what === 'removed') return 'removed';
  if (what.startsWith('type ')) return 'type';
  if (what.endsWith('no longer required')) return 'optional';
  if (what === 'added, required' || what.endsWith('now required')) return 'required';
  return 'narrowed';
}

/**
 * Whether a waiver names this change's operation: `GET, HEAD /path` (HEAD documented from GET, changed alike) is
 * named by `GET /path` or by GET's operationId, not by HEAD's. `operationIds`: operationId → `METHOD /path`.
 */
function namesOperation(
  waiver: Waiver,
  change: BreakingChange,
  operationIds: ReadonlyMap<string, string>,
): boolean {
  const named = operationIds.get(waiver.operation) ?? waiver.operation;
  const [method, path] = named.split(' ');
  const changed = /^((?:[A-Z]+, )*[A-Z]+) (\S+)$/.exec(change.operation);
  if (!changed || !method || !path) return false;
  // `GET, HEAD /path` is GET's change (HEAD follows it): a waiver of HEAD alone does not allow GET's.
  return changed[2] === path && changed[1]!.split(', ')[0] === method.toUpperCase();
}

/** Whether one of the waivers allows this change: its operation, one of its names, and its kind. */
export const allowedBy = (
  change: BreakingChange,
  waivers: readonly Waiver[],
  operationIds: ReadonlyMap<string, string> = new Map(),
): boolean =>
  waivers.some(
    (waiver) =>
      waiver.kind === kindOf(change) &&
      change.names.includes(waiver.name) &&
      namesOperation(waiver, change, operationIds),
  );

/** operationId → `METHOD /path`, from an OpenAPI document. */
export function operationIdsOf(document: unknown): Map<string, string> {
  const ids = new Map<string, string>();
  const paths =
    (document as { paths?: Record<string, Record<string, { operationId?: string }>> }).paths ?? {};
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (operation?.operationId) ids.set(operation.operationId, `${method.toUpperCase()} ${path}`);
    }
  }
  return ids;
}

/** The released versions, newest first, from the `## X.Y.Z - date` headings. */
export function releasedVersions(changelog: string): string[] {
  return [...changelog.matchAll(/^## (\d+\.\d+\.\d+)\b/gm)].map((match) => match[1]!);
}
