// rollback: point the alias back at the index built before the live one (kept by retention), under the lock.
import type { Client } from '@elastic/elasticsearch';
import { aliasTarget, previousIndex, swapAlias } from '../elasticsearch/aliases.js';
import { NothingToRollBackError } from '../errors.js';
import { ReindexLock } from '../elasticsearch/lock.js';

export { NothingToRollBackError };

export interface RollbackResult {
  alias: string;
  from: string;
  to: string;
}

export async function rollback(client: Client, alias: string): Promise<RollbackResult> {
  const lock = await ReindexLock.acquire(client, alias);
  try {
    const live = await aliasTarget(client, alias);
    if (!live) throw new NothingToRollBackError(`alias "${alias}" does not exist; nothing to roll back`);
    const previous = await previousIndex(client, alias, live);
    if (!previous)
      throw new NothingToRollBackError(`alias "${alias}" is on ${live} and no earlier index is kept`);
    await swapAlias(client, alias, live, previous.index);
    return { alias, from: live, to: previous.index };
  } finally {
    await lock.release();
  }
}
