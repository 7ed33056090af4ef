// The reference query: what a list costs Elasticsearch without the API's forgiving text query. For a list with
// `q`, the same body (filters, sort, page, fields, exact total) with the text query swapped for the one a plain
// multi-field mapping offers: one `multi_match` over the same four fields, every word required, fuzziness AUTO.
// It does not find what the forgiving query finds on the hard classes (joined words, two typos, first-letter
// typos); it is the price floor the issue compares against. Statistics with `q` get the same swap; every other
// body is already the plain form (a bool filter, a size-0 aggregation, a get by id), so its reference is itself.
// `prefixLength` 1 is the plain query of issue 47 (`npm run bench -- scale --raw-q plain`): the first letter as typed.
import { parseListQuery } from '../../src/params/list.js';
import { foldText } from '../../indexContract/text/fold.js';
import { parseStatisticsQuery } from '../../src/params/statistics.js';
import { TEXT_FIELDS } from '../../src/matching/textFields.js';
import { buildTextQuery } from '../../src/queries/textQuery.js';
import type { MixRequest } from './requestMix.js';

/** The plain text query for `q` (folded, as the fields it searches hold the folded text). */
export function plainTextQuery(q: string, prefixLength = 0): object {
  return {
    multi_match: {
      query: foldText(q),
      fields: TEXT_FIELDS,
      type: 'best_fields',
      operator: 'and',
      fuzziness: 'AUTO',
      ...(prefixLength > 0 ? { prefix_length: prefixLength } : {}),
    },
  };
}

/** The reference form of a mix request: the API's text query swapped for the plain one, wherever it sits. */
export function referenceRequest(request: MixRequest, prefixLength = 0): MixRequest {
  if (request.esEndpoint !== '_search') return request;
  const querystring = request.apiPath.split('?')[1] ?? '';
  const q = (request.kind === 'statistics' ? parseStatisticsQuery(querystring) : parseListQuery(querystring))
    .q?.text;
  if (q === undefined) return request;
  // The body is the JSON of an object holding buildTextQuery(q) as built, so its text appears in it verbatim.
  const textQuery = JSON.stringify(buildTextQuery(q));
  if (!request.esBody.includes(textQuery)) throw new Error(`no text query in the body of ${request.apiPath}`);
  return {
    ...request,
    esBody: request.esBody.replace(textQuery, () => JSON.stringify(plainTextQuery(q, prefixLength))),
  };
}
