// What changes for a client between two states of the served set: the outgoing and the incoming generation of a
// reindex or rollback, or the live index and a source (reindex --plan). A pure merge: both sides come as (slug,
// content hash) in byte order of the slug (elasticsearch/servedEntries.ts reads a generation, builtEntries.ts
// holds what a reindex wrote; compareGenerations.ts pairs them). Only the changed slugs are kept (their documents
// are fetched afterwards, a batch at a time).
import type { ChangeReason } from '../../indexContract/changeLog.js';
import type { ServedEntry } from '../elasticsearch/servedEntries.js';
import { compareBytes } from '../slugOrder.js';

export type DiffKind = 'added' | 'updated' | 'removed';

export interface DiffEntry {
  slug: string;
  kind: DiffKind;
  /** For an update, `updated` until the documents tell a (de)activation apart (generationChange.ts). */
  reason: ChangeReason;
}

export interface GenerationDiff {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  /** PPAs served before (the removal guard's base). */
  before: number;
  after: number;
  /** Every changed slug in byte order, with why. */
  entries: DiffEntry[];
}

/** Why an upsert is logged: the PPA as served before (undefined: not served) and after. */
export function upsertReason(
  before: { active: boolean } | undefined,
  after: { active: boolean },
): ChangeReason {
  if (!before) return 'published';
  if (before.active && !after.active) return 'deactivated';
  if (!before.active && after.active) return 'reactivated';
  return 'updated';
}

/**
 * Merges two sides in byte order of the slug. `unpublished`: slugs the incoming source holds unpublished (a
 * removal of one of them is "unpublished", of any other "deleted").
 */
export async function diffServed(
  before: AsyncIterable<ServedEntry>,
  after: AsyncIterable<ServedEntry>,
  unpublished: ReadonlySet<string> = new Set(),
): Promise<GenerationDiff> {
  const diff: GenerationDiff = {
    added: 0,
    updated: 0,
    removed: 0,
    unchanged: 0,
    before: 0,
    after: 0,
    entries: [],
  };
  const removal = (slug: string): void => {
    diff.removed++;
    diff.entries.push({ slug, kind: 'removed', reason: unpublished.has(slug) ? 'unpublished' : 'deleted' });
  };
  const afterIterator = after[Symbol.asyncIterator]();
  let next = await afterIterator.next();
  const advance = async (): Promise<void> => {
    diff.after++;
    next = await afterIterator.next();
  };
  try {
    for await (const old of before) {
      diff.before++;
      while (!next.done && compareBytes(next.value.slug, old.slug) < 0) {
        diff.added++;
        diff.entries.push({ slug: next.value.slug, kind: 'added', reason: 'published' });
        await advance();
      }
      if (next.done || next.value.slug !== old.slug) {
        removal(old.slug);
        continue;
      }
      const incoming = next.value;
      if (incoming.hash !== null && incoming.hash === old.hash) diff.unchanged++;
      else {
        diff.updated++;
        diff.entries.push({ slug: old.slug, kind: 'updated', reason: 'updated' });
      }
      await advance();
    }
    while (!next.done) {
      diff.added++;
      diff.entries.push({ slug: next.value.slug, kind: 'added', reason: 'published' });
      await advance();
    }
  } finally {
    await afterIterator.return?.();
  }
  return diff;
}
