// Typed errors that any layer may throw; the error middleware is the only place that turns them
// into RFC 9457 problem+json responses.

export interface InvalidParam {
  name: string;
  reason: string;
}

export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    /** Extra response headers (Retry-After, Allow, ...). */
    readonly headers: Record<string, string> = {},
    /** For 400s: every bad parameter at once. */
    readonly invalidParams?: InvalidParam[],
  ) {
    super(detail);
    this.name = 'ProblemError';
  }
}

export class BadRequestError extends ProblemError {
  constructor(invalidParams: InvalidParam[]) {
    const names = [...new Set(invalidParams.map((param) => param.name))].join(', ');
    super(400, 'Invalid request parameters', `Invalid parameters: ${names}`, {}, invalidParams);
  }
}

export class NotFoundError extends ProblemError {
  constructor(detail = 'No published PPA has this slug.') {
    super(404, 'Not Found', detail);
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
