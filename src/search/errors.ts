// The search gateway's own errors: what went wrong with a search, said in terms of the search. src/http/ alone
// decides what a client is told (problemResponses.ts: 503 with Retry-After, or 400 naming q).

/** The search cluster cannot answer now (unreachable, timing out, overloaded, or the alias missing). */
export class SearchUnavailableError extends Error {
  constructor(
    /** Why, for the log line only: "timed out", "unreachable", "answered HTTP 503", "index not found", … */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Elasticsearch ${reason}`, options);
    this.name = 'SearchUnavailableError';
  }
}

/** Elasticsearch refused the query for its size (too many clauses after expansion): only `q` can do that. */
export class SearchTooLargeError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the search is too large to run', options);
    this.name = 'SearchTooLargeError';
  }
}

/**
 * The search was not run: this instance already has as many searches in flight as Elasticsearch can take now, and
 * no slot came free within the short wait (or Elasticsearch itself rejected it, 429). Refused at once.
 */
export class SearchOverloadedError extends Error {
  constructor(
    /** Why, for the counted log: "queue full", "no slot in time", "rejected by Elasticsearch". */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`search not run: ${reason}`, options);
    this.name = 'SearchOverloadedError';
  }
}

/** The client went away before the search ended: it was cancelled (in Elasticsearch too), nobody reads its answer. */
export class SearchAbandonedError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the client went away: search cancelled', options);
    this.name = 'SearchAbandonedError';
  }
}
