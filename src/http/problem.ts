// Typed errors that any layer may throw; the error middleware is the only place that turns them
// into RFC 9457 problem+json responses.

export interface InvalidParam {
  name: string;
  reason: string;
}

export class ProblemError extends Error {
  /** RFC 9457 extension members added to the body (e.g. the readiness checks). */
  readonly extensions: Record<string, unknown> = {};

  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    /** Extra response headers (Retry-After, Allow, ...). */
    readonly headers: Record<string, string> = {},
    /** For 400s: every bad parameter at once. */
    readonly invalidParams?: InvalidParam[],
    /** RFC 9457 problem type; "about:blank" means the HTTP status says it all. */
    readonly type: string = 'about:blank',
  ) {
    super(detail);
    this.name = 'ProblemError';
  }
}

/** A 400 names at most this many problems: thousands of bad tokens must not make a body of hundreds of KB. */
export const MAX_PROBLEMS = 20;

export class BadRequestError extends ProblemError {
  constructor(invalidParams: InvalidParam[]) {
    const shown = invalidParams.slice(0, MAX_PROBLEMS);
    const names = [...new Set(shown.map((param) => param.name))].join(', ');
    const more = invalidParams.length - shown.length;
    const detail = `Invalid parameters: ${names}${more > 0 ? ` (and ${more} more problems not listed)` : ''}`;
    super(400, 'Invalid request parameters', detail, {}, shown);
  }
}

/** The maximum length of a query string, in bytes as sent (percent-encoded). */
export const MAX_QUERY_STRING_BYTES = 2048;

export class UriTooLongError extends ProblemError {
  constructor(bytes: number) {
    super(
      414,
      'URI Too Long',
      `The query string has ${bytes} bytes; at most ${MAX_QUERY_STRING_BYTES} are accepted.`,
    );
  }
}

export class NotFoundError extends ProblemError {
  constructor(detail = 'No published PPA has this slug.') {
    super(404, 'Not Found', detail);
  }
}

/** A change-log position older than what the log retains (or of a log since made anew): export again. */
export class GoneError extends ProblemError {
  constructor(detail: string) {
    super(410, 'Gone', detail);
  }
}

export class TooManyRequestsError extends ProblemError {
  constructor(retryAfterSeconds: number, limit: number, windowSeconds: number) {
    super(
      429,
      'Too Many Requests',
      `Rate limit of ${limit} requests per ${windowSeconds} seconds exceeded; retry in ${retryAfterSeconds} s.`,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

export class ServiceUnavailableError extends ProblemError {
  constructor(detail = 'The search cluster is unreachable or timed out.', retryAfterSeconds = 5) {
    super(503, 'Service Unavailable', detail, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** RFC 9457 type of the overload refusal: distinct from the outage 503, so clients and dashboards tell them apart. */
export const OVERLOADED_PROBLEM_TYPE = 'urn:ppa-search:problem:overloaded';

/** Seconds an overloaded instance asks a client to wait before it tries again. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 2;

/** The request needed a search and was refused at once, without running it: the instance is at capacity. */
export class OverloadedError extends ProblemError {
  constructor() {
    super(
      503,
      'Service overloaded',
      'The service is answering as many searches as it can; this request was not run. Retry after the time given in Retry-After.',
      { 'Retry-After': String(OVERLOADED_RETRY_AFTER_SECONDS) },
      undefined,
      OVERLOADED_PROBLEM_TYPE,
    );
  }
}

/** The only methods this read-only API answers (OPTIONS for CORS preflight). */
export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/**
 * The methods of the reconciliation services' roots: the read methods and POST, which the specification requires for
 * query batches (it reads, never writes).
 */
export const FORM_METHODS = `${ALLOWED_METHODS}, POST`;

export class MethodNotAllowedError extends ProblemError {
  constructor(method: string, allowed: string = ALLOWED_METHODS) {
    super(405, 'Method Not Allowed', `${method} is not supported: this API is read-only (${allowed}).`, {
      Allow: allowed,
    });
  }
}

/** nginx's status for a request whose client closed the connection before the answer (never seen by the client). */
export const CLIENT_CLOSED_REQUEST = 499;

/** The client went away before its answer: nothing is sent, the request line (499) is all that is left of it. */
export class ClientClosedError extends ProblemError {
  constructor(detail = 'The client closed the connection before the answer.') {
    super(CLIENT_CLOSED_REQUEST, 'Client Closed Request', detail);
  }
}

export class InternalServerError extends ProblemError {
  constructor() {
    super(500, 'Internal Server Error', 'The server failed to answer this request.');
  }
}
