// The live generation's _meta (mapping metadata): built_at, records, the red flags' peer fences (flag_fences), and
// for a PostgreSQL source the relation and the high-water mark that sync reads on from. It travels with the index, so after a swap (or a rollback) sync
// finds the new generation's own mark.
import type { Client } from '@elastic/elasticsearch';
import { IndexerError } from '../errors.js';
import type { PeerFences } from '../../indexContract/flags.js';
import type { IndexMeta, SyncGuardState } from './indexMapping.js';

export async function readIndexMeta(client: Client, index: string): Promise<Partial<IndexMeta>> {
  const mapping = await client.indices.getMapping({ index });
  return (Object.values(mapping)[0]?.mappings._meta ?? {}) as Partial<IndexMeta>;
}

/**
 * The mark sync starts from, the sync runs made on the index so far, the removal guard's state when a run was
 * held back, and the red flags' peer fences its reindex computed (null for an index built before them, whose
 * records sync flags with no fence); an index built from a file has no mark.
 */
export async function readHighWaterMark(
  client: Client,
  index: string,
): Promise<{ mark: string; runs: number; syncGuard?: SyncGuardState; fences: PeerFences | null }> {
  const meta = await readIndexMeta(client, index);
  if (typeof meta.high_water_mark !== 'string') {
    throw new IndexerError(
      `index ${index} has no high-water mark: it was not built from PostgreSQL; ` +
        'run `ppa-indexer reindex --source postgres://…` first',
    );
  }
  return {
    mark: meta.high_water_mark,
    runs: meta.sync_runs ?? 0,
    fences: meta.flag_fences ?? null,
    ...(meta.sync_guard ? { syncGuard: meta.sync_guard } : {}),
  };
}

/** Records (or, with null, clears) that sync is holding back a mass removal on `index`; the rest of _meta is kept. */
export async function recordSyncGuard(
  client: Client,
  index: string,
  state: SyncGuardState | null,
): Promise<void> {
  const { sync_guard: _held, ...meta } = await readIndexMeta(client, index);
  await client.indices.putMapping({ index, _meta: state ? { ...meta, sync_guard: state } : meta });
}

/**
 * A sync run's end on `index`: the mark moves on (when given) and, when the run changed documents, they are made
 * searchable (refresh) and only then the data version moves on, so an API instance that sees the new version can
 * no longer compute an answer from the data before the change (its response cache drops what it held). The rest of
 * _meta is kept: a mapping update replaces the whole _meta.
 */
export async function recordSyncRun(
  client: Client,
  index: string,
  { mark, runs, changed }: { mark?: string; runs?: number; changed: boolean },
): Promise<void> {
  if (changed) await client.indices.refresh({ index });
  const meta = await readIndexMeta(client, index);
  const next: Partial<IndexMeta> = { ...meta };
  if (mark !== undefined) next.high_water_mark = mark;
  if (runs !== undefined) next.sync_runs = runs;
  if (changed) next.data_version = (meta.data_version ?? 0) + 1;
  await client.indices.putMapping({ index, _meta: next });
}
