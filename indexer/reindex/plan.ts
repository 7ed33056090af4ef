// reindex --plan: what a reindex from this source would change for clients, building nothing. The source is
// validated as a reindex validates it, its published records are built into documents (kept only as slug and
// content hash), and the result is compared with the live generation as the swap would compare them.
import type { Client } from '@elastic/elasticsearch';
import { aliasTarget } from '../elasticsearch/aliases.js';
import {
  allowedRemovals,
  DEFAULT_MAX_REMOVED,
  describeLimit,
  parseRemovalLimit,
} from '../changes/removalGuard.js';
import { BuiltEntries } from '../changes/builtEntries.js';
import { diffServed, type DiffKind } from '../changes/generationDiff.js';
import { servedEntries, type ServedEntry } from '../elasticsearch/servedEntries.js';
import { openRecordSource } from '../sources/openSource.js';
import { publishedDocuments, validatePhase, type ReindexOptions } from './reindex.js';
import { terminalSafe } from '../terminalText.js';

/** Slugs listed per kind. */
export const PLAN_EXAMPLES = 20;

export interface ReindexPlan {
  alias: string;
  /** The live generation compared with (null: the alias does not exist; everything would be added). */
  live: string | null;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** Up to PLAN_EXAMPLES slugs of each kind, in byte order. */
  examples: Record<DiffKind, string[]>;
  max_removed: string;
  /** The reindex would stop before its swap (exit 5) under that limit. */
  would_stop: boolean;
  invalid: number;
}

export async function planReindex(
  options: Pick<
    ReindexOptions,
    'client' | 'alias' | 'source' | 'relation' | 'skipInvalid' | 'signal' | 'logger' | 'maxRemoved'
  >,
): Promise<ReindexPlan> {
  const { client, alias, signal } = options;
  const source = await openRecordSource(options.source, {
    ...(options.relation ? { relation: options.relation } : {}),
    ...(signal ? { signal } : {}),
  });
  try {
    const report = await validatePhase(source, options);
    const incoming = new BuiltEntries();
    const unpublished = new Set<string>();
    for await (const { document } of publishedDocuments(source, report, options, unpublished)) {
      incoming.add(document.slug, document.content_hash);
    }
    const live = await aliasTarget(client as Client, alias);
    const diff = await diffServed(
      live === null ? emptyEntries() : servedEntries(client, live, { bounds: incoming.bounds() }),
      incoming.inByteOrder(),
      unpublished,
    );
    const examples: Record<DiffKind, string[]> = { added: [], updated: [], removed: [] };
    for (const entry of diff.entries) {
      const listed = examples[entry.kind];
      if (listed.length < PLAN_EXAMPLES) listed.push(entry.slug);
    }
    const limit = options.maxRemoved ?? parseRemovalLimit(DEFAULT_MAX_REMOVED);
    return {
      alias,
      live,
      added: diff.added,
      updated: diff.updated,
      removed: diff.removed,
      unchanged: diff.unchanged,
      examples,
      max_removed: describeLimit(limit),
      would_stop: live !== null && diff.removed > allowedRemovals(limit, diff.before),
      invalid: report.invalid,
    };
  } finally {
    await source.close();
  }
}

async function* emptyEntries(): AsyncGenerator<ServedEntry> {}

/** The plan for a person: a line per kind with its first slugs, and whether the guard would stop the reindex. */
export function describePlan(plan: ReindexPlan): string {
  const against = plan.live
    ? `the live generation ${plan.live}`
    : `nothing (alias "${plan.alias}" does not exist)`;
  const line = (kind: DiffKind, count: number): string => {
    const listed = plan.examples[kind];
    const more = count > listed.length ? `, … ${count - listed.length} more` : '';
    return `  ${kind.padEnd(10)}${String(count).padStart(8)}${listed.length ? `  ${listed.join(', ')}${more}` : ''}`;
  };
  const lines = [
    `plan: a reindex of alias "${plan.alias}" from this source, against ${against}:`,
    line('added', plan.added),
    line('updated', plan.updated),
    line('removed', plan.removed),
    `  ${'unchanged'.padEnd(10)}${String(plan.unchanged).padStart(8)}`,
    plan.would_stop
      ? `It would stop before the swap (exit 5): more removals than --max-removed ${plan.max_removed} allows.`
      : `Within --max-removed ${plan.max_removed}. Nothing was built.`,
  ];
  return lines.map(terminalSafe).join('\n');
}
