// GET /api/v1/ppas/{slug} → one document lookup by id (the slug is the document's _id): a get, not a search, so
// Elasticsearch reads one document without a query phase. Active or not: only published records are in the index.
// Not realtime: the document as searches see it (after the indexer's refresh), so the detail never shows what the
// list does not yet, and a lookup never makes Elasticsearch refresh.
import { DETAIL_SOURCE_FIELDS } from '../../indexContract/sourceFields.js';
import type { DocumentLookup } from '../gateway/gateway.js';

export function buildDetailLookup(slug: string): DocumentLookup {
  return { id: slug, _source_includes: [...DETAIL_SOURCE_FIELDS], realtime: false };
}
