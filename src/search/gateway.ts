// The API's only door to Elasticsearch: it admits a request's searches (admission.ts: a bounded number in flight,
// the rest refused at once), pins every search to the alias and the request's deadline, tries a search again on
// another node when the node failed (within that deadline and a retry budget; a node that is only slow is not
// failed), cancels a search whose client went away, and turns the client's errors into its own (search/errors.ts):
// overloaded, unavailable, too large, abandoned (./clientErrors.ts reads the client's errors). What a client is told
// is src/http/'s business; what is served now (the alias, the change log's head) is looked up by src/liveState/.
import { errors, type BaseConnection as Connection, type Client, type estypes } from '@elastic/elasticsearch';
import type { Admission } from './admission.js';
import { currentRequestSignal } from '../http/requestSignal.js';
import { DEFAULT_RETRY_BUDGET, RetryBudget } from './retryBudget.js';
import { changeLogIndexName } from '../../indexContract/changeLog.js';
import type { DocumentLookup } from './detailSearch.js';
import { afterFailure, attemptTimeoutMs, startBudget } from './attempts.js';
import { attemptFailure, isRejectedForLoad, searchOutageReason, isQueryTooLarge } from './clientErrors.js';
import {
  SearchAbandonedError,
  SearchOverloadedError,
  SearchTooLargeError,
  SearchUnavailableError,
} from './errors.js';

/** A search request without its index: the gateway pins every search to the alias. */
export type SearchRequestBody = Omit<estypes.SearchRequest, 'index'>;

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
  msearch<TDoc>(requests: readonly SearchRequestBody[]): Promise<estypes.SearchResponse<TDoc>[]>;
  /**
   * One document of the alias by id (null when there is none), with the same retries and errors as search(): the
   * detail's lookup.
   */
  getDocument<TDoc>(lookup: DocumentLookup): Promise<TDoc | null>;
  /** One search on the change log (`<alias>-changes`), with the same retries and errors as search(). */
  searchChangeLog<TDoc>(request: SearchRequestBody): Promise<estypes.SearchResponse<TDoc>>;
  close(): Promise<void>;
}

export interface SearchOptions {
  /**
   * The request already holds a slot of its own (the batches after an export's first, bounded by the export
   * slots): not queued or refused by admission.
   */
  unqueued?: boolean;
}

export interface SearchGatewayOptions {
  client: Client;
  alias: string;
  requestTimeoutMs: number;
  /** Admission control for the searches made for client requests; absent: every search is sent at once. */
  admission?: Admission;
}

/** The longest a node is given to answer a ping after a search on it timed out: busy, or gone? */
export const PROBE_TIMEOUT_MS = 250;

/** The options of one attempt: its share of the deadline, no retry by the client, the request's abort signal. */
interface AttemptOptions {
  requestTimeout: number;
  maxRetries: 0;
  signal?: AbortSignal;
}

export function createSearchGateway({
  client,
  alias,
  requestTimeoutMs,
  admission,
}: SearchGatewayOptions): SearchGateway {
  const changeLog = changeLogIndexName(alias);
  const retries = new RetryBudget(DEFAULT_RETRY_BUDGET, performance.now());
  /** The client's error as the gateway's own, when it is one of those; anything else as it is (a bug: a 500). */
  const searchError = (error: unknown): unknown => {
    if (error instanceof SearchOverloadedError || error instanceof SearchAbandonedError) return error;
    if (error instanceof errors.RequestAbortedError && currentRequestSignal()?.aborted) {
      return new SearchAbandonedError({ cause: error });
    }
    if (isRejectedForLoad(error)) {
      admission?.noteRefusal();
      return new SearchOverloadedError('rejected by Elasticsearch', { cause: error });
    }
    const reason = searchOutageReason(error);
    if (reason) return new SearchUnavailableError(reason, { cause: error });
    if (isQueryTooLarge(error)) return new SearchTooLargeError({ cause: error });
    return error;
  };
  /** Pings checking whether a node whose search timed out still answers, one at a time per node. */
  const probes = new Map<string, Promise<boolean>>();
  /**
   * Whether the node an attempt timed out on answers a ping at once. A node that does is busy (its search pool
   * full), not gone: sending the search to another node would only add load. Any HTTP answer counts.
   */
  const nodeAnswers = (connection: Connection, timeoutMs: number): Promise<boolean> => {
    const running = probes.get(connection.id);
    if (running) return running;
    const probe = connection
      .request(
        { method: 'HEAD', path: '/' },
        { requestId: 'probe', name: 'ppa-search-api', context: null, timeout: timeoutMs },
      )
      .then(
        () => true,
        () => false,
      )
      .finally(() => probes.delete(connection.id));
    probes.set(connection.id, probe);
    return probe;
  };
  /**
   * Runs one read, tried again on another node when its node failed, all within the request's one deadline
   * (counted from `started`, so the wait for admission is in it). The client's own retry is off (maxRetries 0): it
   * would give each attempt the full timeout again.
   */
  const withRetries = async <T>(
    attempt: (options: AttemptOptions) => Promise<T>,
    started: number,
    signal: AbortSignal | undefined,
  ): Promise<T> => {
    let budget = startBudget(started, requestTimeoutMs);
    for (;;) {
      const options: AttemptOptions = {
        requestTimeout: attemptTimeoutMs(budget, performance.now()),
        maxRetries: 0,
        // A signal of the attempt's own, following the request's: the client ends an attempt that times out by
        // dispatching 'abort' on the signal it was given, which must not reach the request's other searches.
        ...(signal ? { signal: AbortSignal.any([signal]) } : {}),
      };
      try {
        return await attempt(options);
      } catch (error) {
        if (signal?.aborted) throw new SearchAbandonedError({ cause: error });
        const failure = attemptFailure(error);
        if (failure === 'other') throw error;
        // (The error carries a copy of the connection: the pool's own is found by id.)
        const id = (error as errors.TimeoutError).meta?.meta?.connection?.id;
        const connection = client.connectionPool.connections.find((candidate) => candidate.id === id);
        if (failure === 'timeout' && connection) {
          // A node that hangs goes out of the round robin (the client does not do that itself), so later searches
          // do not wait for it until a ping finds it answering again; a node that is only busy stays, and the
          // search is not sent elsewhere (under load that would be more load, not an answer).
          const left = budget.deadline - performance.now();
          if (await nodeAnswers(connection, Math.max(1, Math.min(PROBE_TIMEOUT_MS, left / 2)))) throw error;
          client.connectionPool.markDead(connection);
        }
        const next = afterFailure(budget, failure, performance.now());
        if (!next || !retries.tryWithdraw(performance.now())) throw error;
        budget = next;
      }
    }
  };
  /** A read made for a client request: admitted first (unless `unqueued`), then tried within its deadline. */
  const admitted = <T>(
    attempt: (options: AttemptOptions) => Promise<T>,
    options?: SearchOptions,
  ): Promise<T> => {
    const started = performance.now();
    retries.deposit(started);
    const signal = currentRequestSignal();
    const run = () => withRetries(attempt, started, signal);
    return admission && !options?.unqueued ? admission.run(run, signal) : run();
  };
  return {
    async search<TDoc, TAggregations = Record<string, estypes.AggregationsAggregate>>(
      request: Omit<estypes.SearchRequest, 'index'>,
      options?: SearchOptions,
    ): Promise<estypes.SearchResponse<TDoc, TAggregations>> {
      try {
        return await admitted(
          (attemptOptions) =>
            client.search<TDoc, TAggregations>({ ...request, index: alias }, attemptOptions),
          options,
        );
      } catch (error) {
        throw searchError(error);
      }
    },

    async msearch<TDoc>(requests: readonly SearchRequestBody[]): Promise<estypes.SearchResponse<TDoc>[]> {
      let answer: estypes.MsearchResponse<TDoc>;
      try {
        const searches = requests.flatMap((request) => [{}, request as estypes.MsearchMultisearchBody]);
        answer = await admitted((attemptOptions) =>
          client.msearch<TDoc>({ index: alias, searches }, attemptOptions),
        );
      } catch (error) {
        throw searchError(error);
      }
      return answer.responses.map((item) => {
        if (!('error' in item)) return item as estypes.SearchResponse<TDoc>;
        // A failed search inside the answer: the error its own _search would have raised.
        const failed = new errors.ResponseError({
          body: { error: item.error, status: item.status },
          statusCode: item.status,
          headers: {},
          warnings: null,
          meta: {} as never,
        });
        throw searchError(failed);
      });
    },

    async getDocument<TDoc>(lookup: DocumentLookup): Promise<TDoc | null> {
      let found: estypes.GetGetResult<TDoc> | { error?: unknown };
      try {
        // 404 is an answer here (no such document), not an error; a missing index is told by its error body.
        found = (await admitted((attemptOptions) =>
          client.get<TDoc>({ ...lookup, index: alias }, { ...attemptOptions, ignore: [404] }),
        )) as estypes.GetGetResult<TDoc> | { error?: unknown };
      } catch (error) {
        throw searchError(error);
      }
      if ('error' in found && found.error) throw new SearchUnavailableError('index not found');
      const document = found as estypes.GetGetResult<TDoc>;
      return document.found ? (document._source ?? null) : null;
    },

    async searchChangeLog<TDoc>(request: SearchRequestBody): Promise<estypes.SearchResponse<TDoc>> {
      try {
        return await admitted((attemptOptions) =>
          client.search<TDoc>({ ...request, index: changeLog }, attemptOptions),
        );
      } catch (error) {
        throw searchError(error);
      }
    },

    async close(): Promise<void> {
      await client.close();
    },
  };
}
