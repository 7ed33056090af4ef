// Writes in place that are logged (sync's batches): under the change log's writer lock, the previous documents
// are read, the batch is applied and made searchable, and only then its events are published, each with the
// PPA as served after an upsert or as last served before a removal. A write that changes nothing a client sees
// (same content hash) and a delete of a document that was not there log nothing. The document before is hashed
// from its served fields (indexContract/contentHash.ts's servedContentHash), not read for its stored hash: a
// document an older release wrote has none, or one of another definition.
import type { Client } from '@elastic/elasticsearch';
import { servedContentHash } from '../../indexContract/contentHash.js';
import type { IndexDocument } from '../../indexContract/document.js';
import { aliasTarget } from '../elasticsearch/aliases.js';
import { applyChanges, type Change } from '../elasticsearch/changeBulk.js';
import { IndexerError } from '../errors.js';
import type { ChangeLog, LoggedChange } from './changeLog.js';
import { upsertReason } from './generationDiff.js';

/** The documents of `ids` in `index` that exist, by id (realtime: what the index holds now). */
export async function documentsById(
  client: Client,
  index: string,
  ids: readonly string[],
): Promise<Map<string, IndexDocument>> {
  const found = new Map<string, IndexDocument>();
  if (ids.length === 0) return found;
  const response = await client.mget<IndexDocument>({ index, ids: [...ids] });
  for (const doc of response.docs) {
    if ('found' in doc && doc.found && doc._source) found.set(doc._id, doc._source);
  }
  return found;
}

/** What `changes` change for a client, given the documents they replace or delete. */
export function loggedChanges(
  changes: readonly Change[],
  previous: ReadonlyMap<string, IndexDocument>,
  removalReason: (id: string) => 'unpublished' | 'deleted',
): LoggedChange[] {
  const logged: LoggedChange[] = [];
  for (const change of changes) {
    const before = previous.get(change.id);
    if (change.kind === 'delete') {
      if (before) logged.push({ reason: removalReason(change.id), document: before });
      continue;
    }
    const after = change.document as IndexDocument;
    if (before && servedContentHash(before) === after.content_hash) continue;
    logged.push({ reason: upsertReason(before, after), document: after });
  }
  return logged;
}

/** Applies `changes` to the live `index` of `alias` and logs them; fails when the alias moved meanwhile. */
export async function applyLogged(
  client: Client,
  changeLog: ChangeLog,
  target: { alias: string; index: string },
  changes: readonly Change[],
  removalReason: (id: string) => 'unpublished' | 'deleted',
): Promise<number> {
  return changeLog.write(async (session) => {
    // Under the writer lock no swap can happen, so the index checked here stays live until the events are out.
    const live = await aliasTarget(client, target.alias);
    if (live !== target.index) {
      throw new IndexerError(
        `the alias "${target.alias}" moved to ${live ?? 'nothing'} during this run: the next run replays onto it`,
      );
    }
    const previous = await documentsById(
      client,
      target.index,
      changes.map((change) => change.id),
    );
    await applyChanges(client, target.index, [...changes]);
    const logged = loggedChanges(changes, previous, removalReason);
    if (logged.length === 0) return 0;
    await client.indices.refresh({ index: target.index });
    await session.append(logged, null);
    await session.publish();
    return logged.length;
  });
}
