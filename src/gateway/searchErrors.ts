// The search gateway's own errors: what went wrong with a search, said in terms of the search, each the problem a
// client is told of it (src/http/problem.ts), so that src/http/ turns them into answers without knowing the search:
// an outage is a 503 with Retry-After, a refusal the overload problem, a query too large a 400 naming q, a client
// gone a 499 without a body. Each message says what happened, for the log line.
import {
  BadRequestError,
  ClientClosedError,
  OverloadedError,
  ServiceUnavailableError,
} from '../http/problem.js';

/** Seconds a client is asked to wait before retrying after the search service was unavailable. */
export const SEARCH_RETRY_AFTER_SECONDS = 5;

/** The search cluster cannot answer now (unreachable, timing out, overloaded, or the alias missing). */
export class SearchUnavailableError extends ServiceUnavailableError {
  constructor(
    /** Why, for the log line only: "timed out", "unreachable", "answered HTTP 503", "index not found", … */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('The search service is temporarily unavailable; retry later.', SEARCH_RETRY_AFTER_SECONDS);
    this.message = `Elasticsearch ${reason}`;
    this.cause = options?.cause;
    this.name = 'SearchUnavailableError';
  }
}

/** Elasticsearch refused the query for its size (too many clauses after expansion): only `q` can do that. */
export class SearchTooLargeError extends BadRequestError {
  constructor(options?: { cause?: unknown }) {
    super([
      { name: 'q', reason: 'makes a search too large to run (too many words or word forms): shorten it' },
    ]);
    this.message = 'the search is too large to run';
    this.cause = options?.cause;
    this.name = 'SearchTooLargeError';
  }
}

/**
 * The search was not run: this instance already has as many searches in flight as Elasticsearch can take now, and
 * its answer could not come in time (or Elasticsearch itself rejected it, 429). Refused at once.
 */
export class SearchOverloadedError extends OverloadedError {
  constructor(
    /** Why, for the counted log: "queue full", "no slot in time", "rejected by Elasticsearch". */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super();
    this.message = `search not run: ${reason}`;
    this.cause = options?.cause;
    this.name = 'SearchOverloadedError';
  }
}

/** The client went away before the search ended: it was cancelled (in Elasticsearch too), nobody reads its answer. */
export class SearchAbandonedError extends ClientClosedError {
  constructor(options?: { cause?: unknown }) {
    super('the client went away: search cancelled');
    this.message = 'the client went away: search cancelled';
    this.cause = options?.cause;
    this.name = 'SearchAbandonedError';
  }
}

/**
 * An optional search (it only adds to an answer: "did you mean") was not run, because admission was queueing or
 * shedding. Never a client's problem: the answer is sent without what it would have added.
 */
export class SearchDeclinedError extends Error {
  constructor() {
    super('optional search not run: searches are waiting or being refused');
    this.name = 'SearchDeclinedError';
  }
}
