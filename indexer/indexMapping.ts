// The index settings and mappings (mappings/ppas.json), with the build's _meta added.
import type { estypes } from '@elastic/elasticsearch';
import { readFileSync } from 'node:fs';
import { projectFile } from './projectFile.js';

export const INDEX_MAPPING_URL = projectFile('mappings/ppas.json');

interface IndexDefinition {
  settings: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
}

const definition = JSON.parse(readFileSync(INDEX_MAPPING_URL, 'utf8')) as IndexDefinition;

export interface IndexMeta {
  built_at: string;
  records: number;
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
