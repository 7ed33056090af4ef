// The index settings and mappings (mappings/ppas.json): the one file both programs and the tests read.
import type { estypes } from '@elastic/elasticsearch';
import { readFileSync } from 'node:fs';
import { projectFile } from './projectFile.js';

export const INDEX_MAPPING_URL = projectFile('mappings/ppas.json');

export interface IndexDefinition {
  settings: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
}

/** A fresh copy of the definition on every call, so a caller may change its copy freely. */
export function readIndexDefinition(): IndexDefinition {
  return JSON.parse(readFileSync(INDEX_MAPPING_URL, 'utf8')) as IndexDefinition;
}

export const PARTIES_MAPPING_URL = projectFile('mappings/parties.json');

/** The parties' index definition (mappings/parties.json), a fresh copy on every call. */
export function readPartiesDefinition(): IndexDefinition {
  return JSON.parse(readFileSync(PARTIES_MAPPING_URL, 'utf8')) as IndexDefinition;
}
