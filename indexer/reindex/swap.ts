// Phase 5 of a reindex: the swap, as the change log's one writer (changes/changeLog.ts).
import { BuiltEntries } from '../changes/builtEntries.js';
import { ChangeLog } from '../changes/changeLog.js';
import { compareGenerations, compareWithBuilt } from '../changes/compareGenerations.js';
import { appendGenerationChange } from '../changes/generationChange.js';
import { checkRemovals, DEFAULT_MAX_REMOVED, parseRemovalLimit } from '../changes/removalGuard.js';
import { swapAlias } from '../elasticsearch/aliases.js';
import { throwIfAborted } from '../errors.js';
import type { GenerationBuild, ReindexSummary } from './reindexRun.js';

/** The incoming side of the swap's comparison: what the load noted as it wrote it, or the new index to read. */
export type IncomingSide = BuiltEntries | { index: string; bounds: readonly string[] };

/**
 * Phase 5, as the change log's one writer: what the new generation changes for clients (by slug and content
 * hash), checked against --max-removed, logged, then the alias swapped and the events published. The first
 * generation of an alias has nothing to compare with: the log starts (empty) with it.
 */
export async function swapPhase(
  build: GenerationBuild,
  incoming: IncomingSide,
  onSwapped: () => void,
): Promise<ReindexSummary['changes']> {
  const { client, alias, previousIndex, index: newIndex, unpublished, lock, options, logger } = build;
  const changeLog = new ChangeLog(client, alias, {
    ...options.changeLog,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const swap = async (): Promise<void> => {
    throwIfAborted(options.signal);
    await lock.extend(); // proves we still hold the lock right before going live
    await swapAlias(client, alias, previousIndex, newIndex);
    onSwapped();
  };
  if (previousIndex === null) {
    await changeLog.ensure();
    await swap();
    return null;
  }
  return changeLog.write(async (session) => {
    const started = performance.now();
    const diff =
      incoming instanceof BuiltEntries
        ? await compareWithBuilt(client, previousIndex, incoming, unpublished)
        : await compareGenerations(client, previousIndex, incoming.index, unpublished, incoming.bounds);
    checkRemovals(
      'reindex',
      diff.removed,
      diff.before,
      options.maxRemoved ?? parseRemovalLimit(DEFAULT_MAX_REMOVED),
    );
    const compared = performance.now();
    await appendGenerationChange(client, session, diff, { from: previousIndex, to: newIndex });
    await swap();
    session.markHappened();
    await session.publish();
    const { added, updated, removed, unchanged } = diff;
    logger.info(
      {
        added,
        updated,
        removed,
        unchanged,
        compareSeconds: Math.round(compared - started) / 1000,
        logSeconds: Math.round(performance.now() - compared) / 1000,
      },
      'changes against the live generation logged',
    );
    return { added, updated, removed, unchanged };
  });
}
