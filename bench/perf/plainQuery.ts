// The plain text query the forgiving `q` is measured against (issue 47): one fuzzy multi_match, every word
// required, the first letter as typed, as a search box without the API's forms would send it.
import type { MixRequest } from './mix.js';
import { parseListQuery } from '../../src/params/list.js';
import { parseStatisticsQuery } from '../../src/params/statistics.js';
import { buildTextQuery, TEXT_FIELDS } from '../../src/search/textQuery.js';

/** One fuzzy multi_match (fuzziness AUTO, prefix_length 1, operator and) over `fields`. */
export const plainQuery = (q: string, fields: readonly string[]) => ({
  multi_match: {
    query: q,
    fields: [...fields],
    type: 'best_fields' as const,
    operator: 'and' as const,
    fuzziness: 'AUTO',
    prefix_length: 1,
  },
});

/**
 * The same request with its text clause swapped for the plain query over the API's own text fields: the raw side
 * of `npm run bench -- scale --raw-q plain`. Everything else in the body (filters, sort, page, total, fields,
 * aggregations) stays as the API sends it; a request without `q` is returned as it is.
 */
export function withPlainText(request: MixRequest): MixRequest {
  if (request.esEndpoint !== '_search') return request;
  const querystring = request.apiPath.split('?')[1] ?? '';
  const { q } =
    request.kind === 'statistics' ? parseStatisticsQuery(querystring) : parseListQuery(querystring);
  if (q === undefined) return request;
  // The text clause is found as the API builds it, wherever the body holds it.
  const textClause = JSON.stringify(buildTextQuery(q));
  if (!request.esBody.includes(textClause))
    throw new Error(`withPlainText: no text clause in the body of ${request.apiPath}`);
  return {
    ...request,
    esBody: request.esBody.replace(textClause, JSON.stringify(plainQuery(q, TEXT_FIELDS))),
  };
}
