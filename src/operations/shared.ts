// What several handlers read from a request or the served state.
import type { ChangeLogHead } from '../../indexContract/changeLog.js';
import { flagEvidence, type PeerLookup } from '../../indexContract/flags.js';
import { parseIndexBuiltAt } from '../../indexContract/indexName.js';
import { ServiceUnavailableError } from '../http/problem.js';
import { encodeChangeToken } from '../params/changes.js';
import type { EvidenceOf } from '../present/list.js';
import type { OperationDeps } from './operation.js';

/**
 * The change log's position, read before the search an answer comes from (so never later than its data); null
 * when there is no log, or its head cannot be read now (the answer itself does not depend on it).
 */
export async function changesSince(deps: OperationDeps): Promise<string | null> {
  const state = await deps.liveState.served.current().catch(() => undefined);
  return state?.head ? encodeChangeToken({ epoch: state.head.epoch, seq: state.head.seq }) : null;
}

/** The change log's head, or 503 while no log exists (no reindex or sync of this release has run yet). */
export async function logHead(deps: OperationDeps): Promise<ChangeLogHead> {
  // The log's own operations wait for the head as long as the lookup takes (within the request's deadline).
  const state = await deps.liveState.served.current(Infinity);
  if (!state?.head) {
    throw new ServiceUnavailableError(
      'The change log has not started yet: it starts with the next reindex or sync of the index.',
      30,
    );
  }
  return state.head;
}

/**
 * When the live index was built (ISO 8601), from its name: a hit's `_index`, else the alias's index looked up (a
 * search that found nothing names none). The OCDS packages' publishedDate: it moves only with a reindex. An index
 * not named by the indexer has no build time: now, then.
 */
export async function indexBuiltAt(deps: OperationDeps, index: string | undefined): Promise<string> {
  const name = index ?? (await deps.liveState.lookups.liveIndex().catch(() => null));
  const builtAt = name ? parseIndexBuiltAt(name) : null;
  return (builtAt ?? new Date()).toISOString();
}

/**
 * The flags' evidence for documents read from `indices` (a page's hits: one generation, two during a swap): each
 * generation's fences read first (once a generation: LiveState.flagPeers), then each document's evidence derived
 * with its own generation's fences, as the detail does.
 */
export async function evidenceReader(deps: OperationDeps, indices: Iterable<string>): Promise<EvidenceOf> {
  const peers = new Map<string, PeerLookup>();
  for (const index of new Set(indices)) peers.set(index, await deps.liveState.flagPeers(index));
  return (source, index) =>
    (source.flags ?? []).length === 0 ? [] : flagEvidence(source, peers.get(index)!, source.flags!);
}
