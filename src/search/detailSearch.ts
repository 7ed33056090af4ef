// GET /api/v1/ppas/{slug} → one search by slug. Active or not: only published records are in the index.
import type { SearchRequestBody } from './document.js';
import { DETAIL_SOURCE_FIELDS } from './document.js';

export function buildDetailSearch(slug: string): SearchRequestBody {
  return {
    query: { bool: { filter: [{ term: { slug } }] } },
    size: 1,
    _source: [...DETAIL_SOURCE_FIELDS],
  };
}
