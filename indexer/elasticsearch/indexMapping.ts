// The create-index body of a new generation: the contract's settings and mappings, loading settings, the build's _meta
// (with the index contract's version and the release: indexContract/contract.ts).
import type { Client } from '@elastic/elasticsearch';
import { readIndexDefinition, type IndexDefinition } from '../../indexContract/mapping.js';
import type { SyncGuardState } from '../../indexContract/syncGuard.js';
import { contractMeta, type ContractMeta } from '../../indexContract/contract.js';
import { CONTENT_HASH_VERSION } from '../../indexContract/contentHash.js';
import type { PeerFences } from '../../indexContract/flags.js';

export type { SyncGuardState };

const definition = readIndexDefinition();

/** The _meta of a generation; the contract's version and the release that built it are written at creation. */
export interface IndexMeta extends Partial<ContractMeta> {
  built_at: string;
  records: number;
  /** Built from PostgreSQL: the relation read and its snapshot's high-water mark (sync moves it on). */
  source_relation?: string;
  high_water_mark?: string;
  /** Sync runs applied to this index (for --reconcile-every). */
  sync_runs?: number;
  /** Moved on by every sync run that changed documents, once they are searchable (indexContract/dataVersion.ts). */
  data_version?: number;
  /** Set while sync holds back a run that would remove more than --max-removed (indexContract/syncGuard.ts). */
  sync_guard?: SyncGuardState;
  /** The definition its documents' content_hash was computed by (indexContract/contentHash.ts); absent: unknown. */
  content_hash_version?: number;
  /**
   * The red flags' peer fences, computed by the reindex over the set it indexed (indexContract/flags.ts): sync
   * flags a changed record with them, and the API shows them (GET /api/v1/flags). Absent: an older index.
   */
  flag_fences?: PeerFences;
}

// While loading, refresh is off, the translog is synced asynchronously and there are no replicas (the mapping's
// number_of_replicas: 0): a failed build is deleted anyway, so durability and copies buy nothing until the index
// goes live. LIVE_SETTINGS restores per-request durability and refresh; the go-live phase then flushes (what sat
// in the async translog is committed to disk) and adds the replicas of replicasFor().
const LOADING_SETTINGS = { refresh_interval: '-1', translog: { durability: 'async' as const } };
export const LIVE_SETTINGS = { refresh_interval: '1s', translog: { durability: 'request' as const } };

/** The create-index body, with loading settings and the build's _meta. */
export function indexDefinition(meta: IndexMeta): IndexDefinition {
  return {
    settings: { ...definition.settings, index: { ...definition.settings.index, ...LOADING_SETTINGS } },
    mappings: {
      ...definition.mappings,
      _meta: { ...contractMeta(), ...meta, content_hash_version: CONTENT_HASH_VERSION },
    },
  };
}

/**
 * Gives a live index built by an earlier release the fields this release writes (a sync writes documents of the
 * current contract into it, and the mapping is strict). A mapping only grows: new fields are added, existing ones
 * are left as they are (a field whose definition changed fails here, and then only a reindex helps). Documents
 * written before have no value in the new fields until they are written again or reindexed.
 */
export async function addMissingFields(client: Client, index: string): Promise<void> {
  await client.indices.putMapping({ index, properties: definition.mappings.properties });
}

/**
 * Replicas for a live index on a cluster of `dataNodes` data nodes: one copy on another node as soon as there is
 * one (a node can be lost without losing the index or answering 503), none on a single node (a replica could never
 * be assigned there, and the index would stay yellow).
 */
export function replicasFor(dataNodes: number): number {
  return dataNodes >= 2 ? 1 : 0;
}
