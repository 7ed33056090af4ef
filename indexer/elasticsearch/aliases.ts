// The alias and the timestamped indices behind it: where it points, the one-call swap, retention, rollback.
import type { Client } from '@elastic/elasticsearch';
import { isDataIndexOf, parseIndexBuiltAt } from '../../indexContract/indexName.js';
import { partiesAliasOf, partiesIndexOf } from '../../indexContract/parties.js';

export interface DataIndex {
  index: string;
  docs: number;
  builtAt: Date;
}

function statusOf(error: unknown): number | undefined {
  return (error as { meta?: { statusCode?: number } }).meta?.statusCode;
}

/** The index the alias points at, or null when the alias does not exist yet. */
export async function aliasTarget(client: Client, alias: string): Promise<string | null> {
  try {
    const response = await client.indices.getAlias({ name: alias });
    const indices = Object.keys(response);
    if (indices.length > 1)
      throw new Error(`alias "${alias}" points at ${indices.length} indices: ${indices.join(', ')}`);
    return indices[0] ?? null;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** This alias's `<alias>-<timestamp>` indices, newest first. Other indices (the lock's, anyone else's) never appear. */
export async function dataIndices(client: Client, alias: string): Promise<DataIndex[]> {
  const rows = await client.cat.indices({
    index: `${alias}-*`,
    format: 'json',
    h: 'index,docs.count',
    expand_wildcards: 'open',
  });
  return rows
    .filter((row) => row.index !== undefined && isDataIndexOf(alias, row.index))
    .map((row) => ({
      index: row.index!,
      docs: Number(row['docs.count'] ?? 0),
      builtAt: parseIndexBuiltAt(row.index!)!,
    }))
    .sort((a, b) => b.builtAt.getTime() - a.builtAt.getTime());
}

/**
 * Points the alias at `to` in one `_aliases` call (remove + add are applied atomically). When `from` is
 * given it must still hold the alias, so a concurrent move makes this call fail instead of being overwritten.
 * The parties' alias moves in the same call to `to`'s parties (indexContract/parties.ts), or off any index when
 * `to` was built before parties: PPAs and parties are one generation.
 */
export async function swapAlias(
  client: Client,
  alias: string,
  from: string | null,
  to: string,
): Promise<void> {
  const partiesAlias = partiesAliasOf(alias);
  const partiesFrom = await aliasTarget(client, partiesAlias);
  const partiesTo = partiesIndexOf(alias, to);
  const toHasParties = await client.indices.exists({ index: partiesTo });
  await client.indices.updateAliases({
    actions: [
      ...(from ? [{ remove: { index: from, alias, must_exist: true } }] : []),
      { add: { index: to, alias } },
      ...(partiesFrom ? [{ remove: { index: partiesFrom, alias: partiesAlias } }] : []),
      ...(toHasParties ? [{ add: { index: partiesTo, alias: partiesAlias } }] : []),
    ],
  });
}

/**
 * Deletes data indices beyond `keep`. Kept first: the live index, then the one the alias left (the rollback
 * target, even when a rollback made it older than others), then the newest. Returns what it deleted.
 */
export async function applyRetention(
  client: Client,
  alias: string,
  keep: number,
  live: string,
  leftBehind: string | null,
): Promise<string[]> {
  const all = (await dataIndices(client, alias)).map((index) => index.index);
  const order = [
    live,
    ...all.filter((index) => index === leftBehind),
    ...all.filter((index) => index !== live && index !== leftBehind),
  ];
  const kept = new Set(order.slice(0, Math.max(1, keep)));
  const doomed = all.filter((index) => !kept.has(index));
  if (doomed.length > 0) {
    await client.indices.delete({ index: doomed });
    await client.indices.delete({
      index: doomed.map((index) => partiesIndexOf(alias, index)),
      ignore_unavailable: true,
    });
  }
  return doomed;
}

/** The kept index built just before `live`, the one a rollback returns to. */
export async function previousIndex(client: Client, alias: string, live: string): Promise<DataIndex | null> {
  const liveBuiltAt = parseIndexBuiltAt(live)?.getTime() ?? Number.POSITIVE_INFINITY;
  return (await dataIndices(client, alias)).find((index) => index.builtAt.getTime() < liveBuiltAt) ?? null;
}
