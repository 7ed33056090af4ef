// What the alias serves: its index, document counts, age, the indices kept for rollback, and the lock.
import type { Client } from '@elastic/elasticsearch';
import { aliasTarget, dataIndices } from './aliases.js';
import { lockIndexName } from './lock.js';

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
  lock: { owner: string; acquired_at: string; expires_at: string; expired: boolean } | null;
}

export async function aliasStatus(client: Client, alias: string, now = new Date()): Promise<AliasStatus> {
  const [live, indices, lock] = await Promise.all([
    aliasTarget(client, alias),
    dataIndices(client, alias),
    readLock(client, alias),
  ]);
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
    lock: lock
      ? {
          owner: lock.owner,
          acquired_at: lock.acquired_at,
          expires_at: new Date(lock.expires_at).toISOString(),
          expired: lock.expires_at <= now.getTime(),
        }
      : null,
  };
}

async function readLock(
  client: Client,
  alias: string,
): Promise<{ owner: string; acquired_at: string; expires_at: number } | null> {
  try {
    const response = await client.get<{ owner: string; acquired_at: string; expires_at: number }>({
      index: lockIndexName(alias),
      id: 'reindex',
    });
    return response._source ?? null;
  } catch (error) {
    if ((error as { meta?: { statusCode?: number } }).meta?.statusCode === 404) return null;
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
  ];
  return lines.join('\n');
}

function formatAge(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}
