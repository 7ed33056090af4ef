// GET /api/v1/ppas/{slug} → one search by slug. Active or not: only published records are in the index.
import type { SearchRequestBody } from './gateway.js';
import { DETAIL_SOURCE_FIELDS } from '../../indexContract/sourceFields.js';

export function buildDetailSearch(slug: string): SearchRequestBody {
  return {
    query: { bool: { filter: [{ term: { slug } }] } },
    size: 1,
    _source: [...DETAIL_SOURCE_FIELDS],
  };
}
