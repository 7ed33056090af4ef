// The create-index body of a new generation: the contract's settings and mappings, loading settings, the build's _meta.
import { readIndexDefinition, type IndexDefinition } from '../indexContract/mapping.js';

const definition = readIndexDefinition();

export interface IndexMeta {
  built_at: string;
  records: number;
  /** Built from PostgreSQL: the relation read and its snapshot's high-water mark (sync moves it on). */
  source_relation?: string;
  high_water_mark?: string;
  /** Sync runs applied to this index (for --reconcile-every). */
  sync_runs?: number;
}

// While loading, refresh is off and the translog is flushed asynchronously: a failed build is deleted anyway,
// so per-request durability buys nothing until the index goes live. LIVE_SETTINGS restores both.
const LOADING_SETTINGS = { refresh_interval: '-1', translog: { durability: 'async' as const } };
export const LIVE_SETTINGS = { refresh_interval: '1s', translog: { durability: 'request' as const } };

/** The create-index body, with loading settings and the build's _meta. */
export function indexDefinition(meta: IndexMeta): IndexDefinition {
  return {
    settings: { ...definition.settings, index: { ...definition.settings.index, ...LOADING_SETTINGS } },
    mappings: { ...definition.mappings, _meta: { ...meta } },
  };
}
