// What an error of the Elasticsearch client means, for the gateway and the live-state lookups: an outage
// (unreachable, timing out, overloaded, the alias missing), a query too large, a rejection for load, what a
// failed attempt says about its node; and the client's error as the gateway's own (./searchErrors.ts), what
// src/http/ turns into a client's answer. Only `searchError` reads more than its argument: whether the request
// itself went away.
import { errors } from '@elastic/elasticsearch';
import { currentRequestSignal } from '../http/requestSignal.js';
import type { Admission, Outcome } from './admission.js';
import type { AttemptFailure } from './attempts.js';
import {
  SearchAbandonedError,
  SearchOverloadedError,
  SearchTooLargeError,
  SearchUnavailableError,
} from './searchErrors.js';

const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

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

/**
 * The client's error as the gateway's own, when it is one of those; anything else as it is (a bug: a 500). A
 * rejection for load (429) is counted by `admission` as a refusal, so that readiness and metrics show it.
 */
export function searchError(error: unknown, admission?: Admission): unknown {
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
}

/** A failed search inside an _msearch answer, as the client error its own _search would have raised. */
export function msearchItemError(item: { error: unknown; status: number }): errors.ResponseError {
  return new errors.ResponseError({
    body: { error: item.error, status: item.status },
    statusCode: item.status,
    headers: {},
    warnings: null,
    meta: {} as never,
  });
}
