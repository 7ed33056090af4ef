// The API's only door to Elasticsearch: it admits a request's searches (admission.ts: a bounded number in flight,
// the rest refused at once), pins every search to the alias and the request's deadline, tries a search again on
// another node when the node failed (./failover.ts: within that deadline and a retry budget; a node that is only
// slow is not failed), cancels a search whose client went away, and turns the client's errors into its own
// (./clientErrors.ts): overloaded, unavailable, too large, abandoned; with tracing on, the admission wait is a span of
// the request's trace (./admissionSpan.ts). What a client is told is src/http/'s business;
// what is served now (the alias, the change log's head) is looked up by src/liveState/.
import type { Client, estypes } from '@elastic/elasticsearch';
import type { Tracer } from '@opentelemetry/api';
import type { Admission } from './admission.js';
import { admitTraced, requestTraceContext } from './admissionSpan.js';
import { changeLogIndexName } from '../../indexContract/changeLog.js';
import { partiesAliasOf } from '../../indexContract/parties.js';
import { SearchUnavailableError } from './searchErrors.js';
import { Failover, type Attempt } from './failover.js';
import { currentRequestSignal } from '../http/requestSignal.js';
import { msearchItemError, searchError } from './clientErrors.js';

/** A search request without its index: the gateway pins every search to the alias. */
export type SearchRequestBody = Omit<estypes.SearchRequest, 'index'>;

/** One document read by id (the detail): a get, not a search. */
export interface DocumentLookup {
  id: string;
  _source_includes: string[];
  realtime: false;
}

/** A document read by id, with the concrete index (the generation) it was read from. */
export interface FoundDocument<TDoc> {
  source: TDoc;
  index: string;
}

export interface SearchGateway {
  /**
   * One search on the alias, bounded by the request timeout as a whole: tried again on another node when a node
   * fails (refused, reset, 502/503/504, timed out), as long as time is left (attempts.ts).
   */
  search<TDoc, TAggregations = Record<string, estypes.AggregationsAggregate>>(
    request: Omit<estypes.SearchRequest, 'index'>,
    options?: SearchOptions,
  ): Promise<estypes.SearchResponse<TDoc, TAggregations>>;
  /**
   * Several searches on the alias in one round trip (_msearch), answered in order; one that fails fails them all,
   * as a search would.
   */
  msearch<TDoc>(
    requests: readonly SearchRequestBody[],
    options?: SearchOptions,
  ): Promise<estypes.SearchResponse<TDoc>[]>;
  /**
   * One document of the alias by id and the generation it was read from (null when there is none), with the same
   * retries and errors as search(): the detail's lookup.
   */
  getDocument<TDoc>(lookup: DocumentLookup): Promise<FoundDocument<TDoc> | null>;
  /** One search on the change log (`<alias>-changes`), with the same retries and errors as search(). */
  searchChangeLog<TDoc>(request: SearchRequestBody): Promise<estypes.SearchResponse<TDoc>>;
  /**
   * One search on the parties of the served generation (`<alias>-parties`), with the same admission, retries and
   * errors as search(); a generation built before parties has none, and finds nothing.
   */
  searchParties<TDoc>(request: SearchRequestBody): Promise<estypes.SearchResponse<TDoc>>;
  close(): Promise<void>;
}

export interface SearchOptions {
  /**
   * The request already holds a slot of its own (the batches after an export's first, bounded by the export
   * slots): not queued or refused by admission.
   */
  unqueued?: boolean;
  /**
   * When the work this search continues began (performance.now()): its deadline counts from then, so that the
   * searches of one answer (a roll-up's pages) share the one deadline. Absent: from this search.
   */
  startedAt?: number;
  /**
   * The search only adds to an answer ("did you mean"): run only when admission is under no pressure at all,
   * else declined at once (SearchDeclinedError), never queued.
   */
  optional?: boolean;
  /**
   * msearch only: the searches run on the parties of the served generation (`<alias>-parties`) instead of its PPAs;
   * a generation built before parties has none, and finds nothing (the parties' reconciliation).
   */
  on?: 'parties';
}

export interface SearchGatewayOptions {
  client: Client;
  alias: string;
  requestTimeoutMs: number;
  /** Admission control for the searches made for client requests; absent: every search is sent at once. */
  admission?: Admission;
  /** Tracing on (src/tracing.ts): the admission wait is a span of the request's trace. Absent: nothing is traced. */
  tracer?: Tracer;
}

/** One read made for a client request: admitted, tried within its deadline, its error the gateway's own. */
type Read = <T>(attempt: Attempt<T>, options?: SearchOptions) => Promise<T>;

/** A search run through admission control. */
type Admit = <T>(
  search: () => Promise<T>,
  signal: AbortSignal | undefined,
  optional: boolean | undefined,
) => Promise<T>;

/**
 * Admission, its wait traced when tracing is on and the search is made for a traced request; an optional search
 * never waits, so it has no wait to trace.
 */
function admitThrough(admission: Admission, tracer: Tracer | undefined): Admit {
  return (search, signal, optional) => {
    if (optional) return admission.runOptional(search, signal);
    if (!tracer) return admission.run(search, signal);
    const request = requestTraceContext();
    return request ? admitTraced(tracer, admission, search, signal, request) : admission.run(search, signal);
  };
}

function createRead({ client, requestTimeoutMs, admission, tracer }: SearchGatewayOptions): Read {
  const failover = new Failover(client, requestTimeoutMs);
  const admit = admission && admitThrough(admission, tracer);
  return async (attempt, options) => {
    const now = performance.now();
    const started = options?.startedAt ?? now;
    failover.requested(now);
    const signal = currentRequestSignal();
    const run = () => failover.run(attempt, started, signal);
    try {
      return await (admit && !options?.unqueued ? admit(run, signal, options?.optional) : run());
    } catch (error) {
      throw searchError(error, admission);
    }
  };
}

export function createSearchGateway(options: SearchGatewayOptions): SearchGateway {
  const { client, alias, admission } = options;
  const changeLog = changeLogIndexName(alias);
  const parties = partiesAliasOf(alias);
  const read = createRead(options);
  return {
    search: (request, searchOptions) =>
      read((attempt) => client.search({ ...request, index: alias }, attempt), searchOptions),

    async msearch<TDoc>(requests: readonly SearchRequestBody[], searchOptions?: SearchOptions) {
      const searches = requests.flatMap((request) => [{}, request as estypes.MsearchMultisearchBody]);
      const target =
        searchOptions?.on === 'parties'
          ? { index: parties, ignore_unavailable: true, allow_no_indices: true }
          : { index: alias };
      const answer = await read(
        (attempt) => client.msearch<TDoc>({ ...target, searches }, attempt),
        searchOptions,
      );
      return answer.responses.map((item) => searchResponseOf(item, admission));
    },

    async getDocument<TDoc>(lookup: DocumentLookup) {
      // 404 is an answer here (no such document), not an error; a missing index is told by its error body.
      const found = await read((attempt) =>
        client.get<TDoc>({ ...lookup, index: alias }, { ...attempt, ignore: [404] }),
      );
      return documentOf(found);
    },

    searchChangeLog: (request) => read((attempt) => client.search({ ...request, index: changeLog }, attempt)),

    searchParties: (request) =>
      read((attempt) =>
        client.search(
          { ...request, index: parties, ignore_unavailable: true, allow_no_indices: true },
          attempt,
        ),
      ),

    close: () => client.close(),
  };
}

/** One search of an _msearch answer; a failed one throws the error its own _search would have raised. */
function searchResponseOf<TDoc>(
  item: estypes.MsearchResponseItem<TDoc>,
  admission: Admission | undefined,
): estypes.SearchResponse<TDoc> {
  if (!('error' in item)) return item as estypes.SearchResponse<TDoc>;
  throw searchError(msearchItemError(item), admission);
}

/** The document of a get answer, null when there is none; an answer with an error body: the index is missing. */
function documentOf<TDoc>(
  found: estypes.GetGetResult<TDoc> | { error?: unknown },
): FoundDocument<TDoc> | null {
  if ('error' in found && found.error) throw new SearchUnavailableError('index not found');
  const document = found as estypes.GetGetResult<TDoc>;
  return document.found && document._source ? { source: document._source, index: document._index } : null;
}
