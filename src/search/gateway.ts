// The API's only door to Elasticsearch: it admits a request's searches (admission.ts: a bounded number in flight,
// the rest refused at once), pins every search to the alias and the request's deadline, tries a search again on
// another node when the node failed (within that deadline and a retry budget; a node that is only slow is not
// failed), cancels a search whose client went away, and turns the client's errors into its own (search/errors.ts):
// overloaded, unavailable, too large, abandoned. What a client is told is src/http/'s business.
import { errors, type BaseConnection as Connection, type Client, type estypes } from '@elastic/elasticsearch';
import type { Admission, Outcome } from './admission.js';
import { currentRequestSignal } from './requestSignal.js';
import { DEFAULT_RETRY_BUDGET, RetryBudget } from './retryBudget.js';
import { DATA_VERSION_FIELD, generationName } from '../../indexContract/dataVersion.js';
import { changeLogIndexName, HEAD_ID, type ChangeLogHead } from '../../indexContract/changeLog.js';
import type { DocumentLookup } from './detailSearch.js';
import { SYNC_GUARD_FIELD, type SyncGuardState } from '../../indexContract/syncGuard.js';
import { afterFailure, attemptTimeoutMs, startBudget, type AttemptFailure } from './attempts.js';
import {
  SearchAbandonedError,
  SearchOverloadedError,
  SearchTooLargeError,
  SearchUnavailableError,
} from './errors.js';

/** A search request without its index: the gateway pins every search to the alias. */
export type SearchRequestBody = Omit<estypes.SearchRequest, 'index'>;

export interface SearchReadiness {
  /** The cluster answered. */
  cluster: boolean;
  /** The alias (ES_INDEX) exists. */
  alias: boolean;
  /** Why not ready, in words safe to show a client. */
  detail?: string;
}

/** What the indexer says about the served set beside the documents: the change log's head and sync's state. */
export interface ServedState {
  /** null: the change log does not exist yet (no reindex or sync of this release has run). */
  head: ChangeLogHead | null;
  /** Set while sync holds back a run that would remove more than --max-removed. */
  syncGuard: SyncGuardState | null;
  /** Where sync's last complete run read up to (null: the live index was not built from PostgreSQL). */
  highWaterMark: string | null;
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
  msearch<TDoc>(requests: readonly SearchRequestBody[]): Promise<estypes.SearchResponse<TDoc>[]>;
  /**
   * One document of the alias by id (null when there is none), with the same retries and errors as search(): the
   * detail's lookup.
   */
  getDocument<TDoc>(lookup: DocumentLookup): Promise<TDoc | null>;
  /** One search on the change log (`<alias>-changes`), with the same retries and errors as search(). */
  searchChangeLog<TDoc>(request: SearchRequestBody): Promise<estypes.SearchResponse<TDoc>>;
  /** The change log's head and sync's state, read together (two small lookups). */
  servedState(): Promise<ServedState>;
  ready(): Promise<SearchReadiness>;
  /** The concrete index behind the alias (null when the alias is missing): which generation is served. */
  liveIndex(): Promise<string | null>;
  /**
   * What the served answers are computed from, in one lookup: the concrete index behind the alias and its data
   * version (moved on by every sync that changed documents), as `generationName()`; null when the alias is missing.
   */
  liveGeneration(): Promise<string | null>;
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

const UNAVAILABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

/** The options of one attempt: its share of the deadline, no retry by the client, the request's abort signal. */
interface AttemptOptions {
  requestTimeout: number;
  maxRetries: 0;
  signal?: AbortSignal;
}

/**
 * Says why an error from the Elasticsearch client means "the search cluster is unavailable" (unreachable, timing
 * out, overloaded, or the alias missing), or undefined when it is something else (a bug: a 500).
 */
export function searchOutageReason(error: unknown): string | undefined {
  if (error instanceof errors.TimeoutError) return 'timed out';
  if (error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError) {
    return 'unreachable';
  }
  // Something answered that is not (a supported) Elasticsearch, e.g. a proxy's error page.
  if (error instanceof errors.ProductNotSupportedError || error instanceof errors.DeserializationError) {
    return 'answered unexpectedly';
  }
  if (error instanceof errors.ResponseError) {
    const status = error.statusCode ?? 0;
    if (UNAVAILABLE_STATUSES.has(status)) return `answered HTTP ${status}`;
    const type = (error.body as { error?: { type?: string } } | undefined)?.error?.type;
    // The alias is missing: nothing to search until the indexer has run.
    if (status === 404 && type === 'index_not_found_exception') return 'index not found';
  }
  return undefined;
}

/**
 * Elasticsearch refused the query for its size (too many clauses after expansion). Only `q` can make a query
 * that large: the client's problem, not an outage and not a 500.
 */
export function isQueryTooLarge(error: unknown): boolean {
  if (!(error instanceof errors.ResponseError) || error.statusCode !== 400) return false;
  return QUERY_TOO_LARGE.test(JSON.stringify(error.body ?? ''));
}
const QUERY_TOO_LARGE = /too_many_(?:nested_)?clauses|maxClauseCount|max_clause_count|too many clauses/i;

/** Elasticsearch rejected the search for load (429, es_rejected_execution_exception): overload, not a failure. */
export function isRejectedForLoad(error: unknown): boolean {
  return error instanceof errors.ResponseError && error.statusCode === 429;
}

/** What an ended search tells admission control: a timeout or a rejection is overload; a cancellation nothing. */
export function admissionOutcome(error: unknown): Outcome {
  if (error instanceof SearchAbandonedError || error instanceof errors.RequestAbortedError) return 'skip';
  if (error instanceof errors.TimeoutError || isRejectedForLoad(error)) return 'dropped';
  return 'sample';
}

/** What a failed attempt says about the node it went to: whether another node may answer. */
export function attemptFailure(error: unknown): AttemptFailure {
  if (error instanceof errors.TimeoutError) return 'timeout';
  if (error instanceof errors.ConnectionError) return 'node';
  if (error instanceof errors.ResponseError && [502, 503, 504].includes(error.statusCode ?? 0)) return 'node';
  return 'other';
}

export function createSearchGateway({
  client,
  alias,
  requestTimeoutMs,
  admission,
}: SearchGatewayOptions): SearchGateway {
  const requestOptions = { requestTimeout: requestTimeoutMs, maxRetries: 0 };
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
  const liveIndex = async (): Promise<string | null> => {
    try {
      const aliases = await client.indices.getAlias({ name: alias }, requestOptions);
      return Object.keys(aliases)[0] ?? null;
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 404) return null;
      throw error;
    }
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

    async servedState(): Promise<ServedState> {
      const [head, meta] = await Promise.all([
        client
          .get<{ log: ChangeLogHead }>({ index: changeLog, id: HEAD_ID }, requestOptions)
          .then((found) => found._source?.log ?? null)
          .catch((error: unknown) => {
            if (error instanceof errors.ResponseError && error.statusCode === 404) return null;
            throw error;
          }),
        client.indices
          .getMapping(
            {
              index: alias,
              filter_path: [`*.mappings._meta.${SYNC_GUARD_FIELD}`, '*.mappings._meta.high_water_mark'],
            },
            requestOptions,
          )
          .catch((error: unknown) => {
            if (error instanceof errors.ResponseError && error.statusCode === 404) return {};
            throw error;
          }),
      ]);
      const state = Object.values(meta as estypes.IndicesGetMappingResponse)[0]?.mappings._meta ?? {};
      return {
        head,
        syncGuard: (state[SYNC_GUARD_FIELD] as SyncGuardState | undefined) ?? null,
        highWaterMark: typeof state.high_water_mark === 'string' ? state.high_water_mark : null,
      };
    },

    liveIndex,

    async liveGeneration(): Promise<string | null> {
      let mappings: estypes.IndicesGetMappingResponse;
      try {
        // `dynamic` is in every mapping of the contract: it keeps the index's name in the filtered answer when the
        // index has no data version yet.
        mappings = await client.indices.getMapping(
          { index: alias, filter_path: ['*.mappings.dynamic', `*.mappings._meta.${DATA_VERSION_FIELD}`] },
          requestOptions,
        );
      } catch (error) {
        if (error instanceof errors.ResponseError && error.statusCode === 404) return null;
        throw error;
      }
      const [index, state] = Object.entries(mappings)[0] ?? [];
      if (index === undefined) {
        // An index of another mapping (no `dynamic`): its name alone.
        const named = await liveIndex();
        return named === null ? null : generationName(named, 0);
      }
      const version = state?.mappings._meta?.[DATA_VERSION_FIELD];
      return generationName(index, typeof version === 'number' ? version : 0);
    },

    async ready(): Promise<SearchReadiness> {
      try {
        const exists = await client.indices.exists({ index: alias }, requestOptions);
        return exists
          ? { cluster: true, alias: true }
          : { cluster: true, alias: false, detail: 'alias missing' };
      } catch (error) {
        const reason = searchOutageReason(error);
        if (error instanceof errors.ResponseError && !reason) {
          return { cluster: false, alias: false, detail: `answered HTTP ${error.statusCode ?? 'error'}` };
        }
        return { cluster: false, alias: false, detail: reason ?? 'failed' };
      }
    },

    async close(): Promise<void> {
      await client.close();
    },
  };
}
