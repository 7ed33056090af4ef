// A recording fake of the search gateway, for the operations' unit tests: every call is recorded (what was asked,
// with its options) and answered by the test's script for that method. A method the script leaves out throws, so
// an operation that asks for what it should not fails loudly.
import type { estypes } from '@elastic/elasticsearch';
import type {
  DocumentLookup,
  SearchGateway,
  SearchOptions,
  SearchRequestBody,
} from '../../src/gateway/gateway.js';

export type GatewayMethod = 'search' | 'msearch' | 'getDocument' | 'searchChangeLog' | 'searchParties';

export interface GatewayCall {
  method: GatewayMethod;
  /** The request body (msearch: the list of bodies; getDocument: the lookup). */
  request: unknown;
  options?: SearchOptions;
}

/** How the fake answers each method; `nth` counts that method's calls from 0. */
export interface GatewayScript {
  search?: (request: SearchRequestBody, options: SearchOptions | undefined, nth: number) => unknown;
  msearch?: (requests: readonly SearchRequestBody[], nth: number) => unknown;
  getDocument?: (lookup: DocumentLookup, nth: number) => unknown;
  searchChangeLog?: (request: SearchRequestBody, nth: number) => unknown;
  searchParties?: (request: SearchRequestBody, nth: number) => unknown;
}

export interface RecordingGateway {
  gateway: SearchGateway;
  calls: GatewayCall[];
  /** The requests sent with `method`, in order. */
  requests(method: GatewayMethod): SearchRequestBody[];
}

export function recordingGateway(script: GatewayScript): RecordingGateway {
  const calls: GatewayCall[] = [];
  const counts = new Map<GatewayMethod, number>();
  function answer(method: GatewayMethod, run: (nth: number) => unknown): Promise<never> {
    const nth = counts.get(method) ?? 0;
    counts.set(method, nth + 1);
    return Promise.resolve().then(() => run(nth) as never);
  }
  const notScripted = (method: GatewayMethod) => () => {
    throw new Error(`the gateway was not expected to be asked ${method}()`);
  };
  const gateway = {
    search(request: SearchRequestBody, options?: SearchOptions) {
      calls.push({ method: 'search', request, ...(options ? { options } : {}) });
      const run = script.search ?? notScripted('search');
      return answer('search', (nth) => run(request, options, nth));
    },
    msearch(requests: readonly SearchRequestBody[]) {
      calls.push({ method: 'msearch', request: requests });
      const run = script.msearch ?? notScripted('msearch');
      return answer('msearch', (nth) => run(requests, nth));
    },
    getDocument(lookup: DocumentLookup) {
      calls.push({ method: 'getDocument', request: lookup });
      const run = script.getDocument ?? notScripted('getDocument');
      return answer('getDocument', (nth) => run(lookup, nth));
    },
    searchChangeLog(request: SearchRequestBody) {
      calls.push({ method: 'searchChangeLog', request });
      const run = script.searchChangeLog ?? notScripted('searchChangeLog');
      return answer('searchChangeLog', (nth) => run(request, nth));
    },
    searchParties(request: SearchRequestBody) {
      calls.push({ method: 'searchParties', request });
      const run = script.searchParties ?? notScripted('searchParties');
      return answer('searchParties', (nth) => run(request, nth));
    },
    close: () => Promise.resolve(),
  } as unknown as SearchGateway;
  return {
    gateway,
    calls,
    requests: (method) =>
      calls.filter((call) => call.method === method).map((call) => call.request as SearchRequestBody),
  };
}

/** A script's answer that fails with `error`, as the gateway's errors do. */
export const failing = (error: Error) => (): never => {
  throw error;
};

/** One hit of a canned answer: its _source, and the sort values Elasticsearch would give it. */
export interface CannedHit<T> {
  source: T;
  sort?: (string | number)[];
}

/** A search answer holding `hits` (sources alone, or with their sort values). */
export function searchResponse<T>(
  hits: readonly (T | CannedHit<T>)[],
  options: { total?: number; aggregations?: unknown } = {},
): estypes.SearchResponse<T> {
  const canned = hits.map((hit) =>
    typeof hit === 'object' && hit !== null && 'source' in hit ? hit : { source: hit as T },
  );
  return {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, failed: 0 },
    hits: {
      total: { value: options.total ?? canned.length, relation: 'eq' },
      hits: canned.map(({ source, sort }, index) => ({
        _index: 'ppas-test',
        _id: String(index),
        _source: source,
        ...(sort ? { sort } : {}),
      })),
    },
    ...(options.aggregations ? { aggregations: options.aggregations as never } : {}),
  };
}

/** The filter clauses of a request's bool query (where the operations put the filters they derive). */
export function filterClauses(request: SearchRequestBody | undefined): unknown[] {
  const query = request?.query as { bool?: { filter?: unknown } } | undefined;
  const filter = query?.bool?.filter;
  if (!Array.isArray(filter)) throw new Error(`no bool filter in ${JSON.stringify(request)}`);
  return filter;
}

/**
 * A search function for an empty answer's "did you mean" (src/queries/didYouMean.ts): its first search counts the
 * likeliest rewrite at `total` and finds every other held; a count (size 0, exact total) finds `total`; any other
 * search finds nothing.
 */
export function didYouMeanSearch(total: number) {
  return (request: SearchRequestBody): estypes.SearchResponse<never> => {
    if (request.aggs?.first) {
      const held = (request.aggs.held as { filters?: { filters: object } } | undefined)?.filters?.filters;
      const buckets = Object.fromEntries(Object.keys(held ?? {}).map((key) => [key, { doc_count: 1 }]));
      const aggregations = { first: { doc_count: total }, held: { buckets } };
      return searchResponse<never>([], { total: 0, aggregations });
    }
    const counted = request.size === 0 && request.track_total_hits === true;
    return searchResponse<never>([], { total: counted ? total : 0 });
  };
}
