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
