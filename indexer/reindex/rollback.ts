// rollback: point the alias back at the index built before the live one (kept by retention), under the lock. The
// change log records it as any other change of generation: what the older index serves differently.
import type { Client } from '@elastic/elasticsearch';
import { aliasTarget, previousIndex, swapAlias } from '../elasticsearch/aliases.js';
import { NothingToRollBackError } from '../errors.js';
import { AliasLock } from '../elasticsearch/lock.js';
import { ChangeLog, type ChangeLogOptions } from '../changes/changeLog.js';
import { appendGenerationChange } from '../changes/generationChange.js';
import { compareGenerations } from '../changes/compareGenerations.js';
import type { GenerationDiff } from '../changes/generationDiff.js';
import { slugBounds } from '../elasticsearch/slugRanges.js';

export { NothingToRollBackError };

export interface RollbackResult {
  alias: string;
  from: string;
  to: string;
  /** What the rollback changed for clients (logged in the change log). */
  changes: Pick<GenerationDiff, 'added' | 'updated' | 'removed' | 'unchanged'>;
}

export async function rollback(
  client: Client,
  alias: string,
  changeLogOptions: ChangeLogOptions = {},
): Promise<RollbackResult> {
  const lock = await AliasLock.acquire(client, alias, { guards: 'generations' });
  try {
    const live = await aliasTarget(client, alias);
    if (!live) throw new NothingToRollBackError(`alias "${alias}" does not exist; nothing to roll back`);
    const previous = await previousIndex(client, alias, live);
    if (!previous)
      throw new NothingToRollBackError(`alias "${alias}" is on ${live} and no earlier index is kept`);
    const changes = await new ChangeLog(client, alias, changeLogOptions).write(async (session) => {
      // Both generations cut where the live one's slugs are (they hold about the same slugs).
      const bounds = await slugBounds(client, live);
      const diff = await compareGenerations(client, live, previous.index, new Set(), bounds);
      await appendGenerationChange(client, session, diff, { from: live, to: previous.index });
      await lock.extend();
      await swapAlias(client, alias, live, previous.index);
      session.markHappened();
      await session.publish();
      const { added, updated, removed, unchanged } = diff;
      return { added, updated, removed, unchanged };
    });
    return { alias, from: live, to: previous.index, changes };
  } finally {
    await lock.release();
  }
}
