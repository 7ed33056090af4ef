// Generations of an alias in the fake Elasticsearch (fakeElasticsearch.ts), as a reindex leaves them: an index
// `<alias>-<timestamp>` with the _meta of indexMapping.ts's indexDefinition (the contract's fields, the current
// content-hash version) and the documents buildDocument makes of the published records.
import type { IndexDocument } from '../../indexContract/document.js';
import { indexNameFor } from '../../indexContract/indexName.js';
import type { PpaRecord } from '../../indexContract/record.js';
import { buildDocument } from '../../indexer/elasticsearch/buildDocument.js';
import { indexDefinition, type IndexMeta } from '../../indexer/elasticsearch/indexMapping.js';
import type { FakeElasticsearch, FakeIndex } from './fakeElasticsearch.js';
import { ppaRecord } from './ppaRecords.js';

/** The name of the generation of `alias` built `minute` minutes into 2026. */
export function generationName(alias: string, minute: number): string {
  return indexNameFor(alias, new Date(Date.UTC(2026, 0, 1, 0, minute)));
}

/** The documents of the published records of `slugs` (each a ppaRecord). */
export function documentsOf(slugs: readonly string[]): IndexDocument[] {
  return slugs.map((slug) => buildDocument(ppaRecord(slug)));
}

/**
 * A generation named `name` holding the documents of `records` (slugs are made into records), with the _meta a
 * reindex writes plus `meta`; `live` points the alias (the name's part before the timestamp) at it.
 */
export function addGeneration(
  es: FakeElasticsearch,
  name: string,
  records: readonly (PpaRecord | string)[],
  { live = false, meta = {} }: { live?: boolean; meta?: Partial<IndexMeta> } = {},
): FakeIndex {
  const documents = records
    .map((record) => (typeof record === 'string' ? ppaRecord(record) : record))
    .filter((record) => record.published)
    .map((record) => buildDocument(record));
  const alias = name.slice(0, name.lastIndexOf('-'));
  const definition = indexDefinition({
    built_at: '2026-01-01T00:00:00.000Z',
    records: documents.length,
    ...meta,
  });
  return es.addIndex(name, {
    documents,
    meta: definition.mappings._meta as Record<string, unknown>,
    aliases: live ? [alias] : [],
  });
}
