// What the alias serves: its index, document counts, age, the indices kept for rollback, and the lock.
import type { Client } from '@elastic/elasticsearch';
import { aliasTarget, dataIndices } from '../elasticsearch/aliases.js';
import { clusterNow, LOCK_INDEX, type LockDocument } from '../elasticsearch/lock.js';

export interface IndexStatus {
  index: string;
  docs: number;
  built_at: string;
  age_seconds: number;
  live: boolean;
}

export interface AliasStatus {
  alias: string;
  index: string | null;
  docs: number | null;
  built_at: string | null;
  age_seconds: number | null;
  kept: IndexStatus[];
  lock: LockStatus | null;
  /** Every reindex lock in the cluster (every alias), for an operator who wonders what is running. */
  locks: LockStatus[];
}

export interface LockStatus {
  alias: string;
  owner: string;
  acquired_at: string;
  expires_at: string;
  /** On the cluster's clock (the one the lock runs on). */
  expired: boolean;
}

export async function aliasStatus(client: Client, alias: string, now = new Date()): Promise<AliasStatus> {
  const [live, indices, lockDocuments, clusterTime] = await Promise.all([
    aliasTarget(client, alias),
    dataIndices(client, alias),
    readLocks(client),
    clusterNow(client),
  ]);
  const locks = lockDocuments.map((lock): LockStatus => ({
    alias: lock.alias,
    owner: lock.owner,
    acquired_at: lock.acquired_at,
    expires_at: new Date(lock.expires_at).toISOString(),
    expired: lock.expires_at <= clusterTime,
  }));
  const kept = indices.map((index) => ({
    index: index.index,
    docs: index.docs,
    built_at: index.builtAt.toISOString(),
    age_seconds: Math.round((now.getTime() - index.builtAt.getTime()) / 1000),
    live: index.index === live,
  }));
  const current = kept.find((index) => index.live);
  let docs = current?.docs ?? null;
  if (live && !current) docs = (await client.count({ index: live })).count; // an alias on a non-timestamped index
  return {
    alias,
    index: live,
    docs,
    built_at: current?.built_at ?? null,
    age_seconds: current?.age_seconds ?? null,
    kept,
    lock: locks.find((lock) => lock.alias === alias) ?? null,
    locks,
  };
}

/** The lock documents of every alias (none when no reindex ever ran). */
async function readLocks(client: Client): Promise<LockDocument[]> {
  try {
    // Locks come and go within a second: refresh the (tiny) index so the search sees the current ones.
    await client.indices.refresh({ index: LOCK_INDEX });
    const response = await client.search<LockDocument>({ index: LOCK_INDEX, size: 100, sort: ['alias'] });
    return response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));
  } catch (error) {
    if ((error as { meta?: { statusCode?: number } }).meta?.statusCode === 404) return [];
    throw error;
  }
}

export function describeStatus(status: AliasStatus): string {
  const lines = [
    status.index
      ? `alias ${status.alias} → ${status.index}: ${status.docs} documents, built ${status.built_at ?? 'at an unknown time'}` +
        (status.age_seconds === null ? '' : ` (${formatAge(status.age_seconds)} ago)`)
      : `alias ${status.alias} does not exist yet`,
    `kept indices (${status.kept.length}):`,
    ...status.kept.map(
      (index) =>
        `  ${index.live ? '*' : ' '} ${index.index}  ${index.docs} docs  built ${formatAge(index.age_seconds)} ago`,
    ),
    status.lock
      ? `lock: held by ${status.lock.owner} since ${status.lock.acquired_at}${status.lock.expired ? ' (expired)' : ''}`
      : 'lock: free',
    ...status.locks
      .filter((lock) => lock.alias !== status.alias)
      .map(
        (lock) =>
          (lock.alias.endsWith(':sync')
            ? `sync running: alias ${lock.alias.slice(0, -':sync'.length)}`
            : `other reindex running: alias ${lock.alias}`) +
          `, held by ${lock.owner} since ${lock.acquired_at}` +
          (lock.expired ? ' (expired)' : ''),
      ),
  ];
  return lines.join('\n');
}

function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}
