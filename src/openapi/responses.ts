// The pieces of the OpenAPI document that operations share: the response headers, the answers every /api/v1
// operation may give (304, 405, 414, 429, 500, 503), the request headers, and the problem body.
import { OVERLOADED_PROBLEM_TYPE } from '../http/problem.js';
import { record, text, Type } from '../wire/bodySchema.js';

export interface OpenApiOperation {
  operationId: string;
  parameters?: readonly object[];
  responses: Record<string, OpenApiResponse>;
  [field: string]: unknown;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: Record<string, unknown> }>;
}

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  description,
  schema,
});

/** Every response header the document names (components.headers). */
export const RESPONSE_HEADERS = {
  'RateLimit-Policy': header('The quota: `"per-ip";q=<requests>;w=<window seconds>`.'),
  RateLimit: header('What is left: `"per-ip";r=<remaining>;t=<seconds to reset>`.'),
  'X-RateLimit-Limit': header('Requests allowed per window.', { type: 'integer', minimum: 1 }),
  'X-RateLimit-Remaining': header('Requests left in the window.', { type: 'integer', minimum: 0 }),
  'X-RateLimit-Reset': header('When the window resets (epoch seconds).', { type: 'integer' }),
  'Retry-After': header('Whole seconds to wait before retrying.', { type: 'integer', minimum: 0 }),
  ETag: header('Strong validator of the body; send it back in If-None-Match.'),
  'Cache-Control': header('`public, max-age=<CACHE_MAX_AGE_S>` on 200 and 304; `no-store` on errors.'),
  Link: header('RFC 8288 links: first, prev, next, last, self (the same as the body\'s "links").'),
  'X-Request-Id': header(
    "The request id: the client's own when it matches ^[A-Za-z0-9._-]{1,128}$, else a UUID.",
  ),
  Allow: header('The methods allowed: GET, HEAD, OPTIONS.'),
  'Content-Disposition': header('`attachment; filename="ppas-<UTC date>.<csv|ndjson|ocds.jsonl>"`.'),
  'Changes-Since': header(
    'Where to follow GET /api/v1/ppas/changes from (its since) so that this export plus the changes after it is ' +
      'the live set. Absent while the index has no change log.',
  ),
  'Last-Modified': header(
    'When the newest change in the feed reached the index; If-Modified-Since is answered 304.',
  ),
  'Access-Control-Allow-Origin': header(
    'Always `*`: any origin may read any answer (no credentials are used).',
  ),
  'Access-Control-Expose-Headers': header(
    'The headers a browser page may read: the rate-limit headers, Retry-After, Link, ETag, X-Request-Id, ' +
      'Last-Modified and Changes-Since.',
  ),
  'X-Content-Type-Options': header('Always `nosniff`.'),
};

export type HeaderName = keyof typeof RESPONSE_HEADERS;

/** Sent on every answer, whatever the path or status. */
export const EVERY_ANSWER: HeaderName[] = [
  'X-Request-Id',
  'Access-Control-Allow-Origin',
  'Access-Control-Expose-Headers',
  'X-Content-Type-Options',
];

export const RATE_LIMIT_HEADERS: HeaderName[] = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

export const headerRefs = (names: HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

export const json = (schema: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
});

/** RFC 9457 problem details (component Problem). */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri-reference', description: '"about:blank": the status says it all.' }),
    title: text('Short summary of the problem type.'),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    detail: text('What went wrong, for a person to read.'),
    instance: Type.Optional(Type.String({ description: 'The request path and query that had the problem.' })),
    invalid_params: Type.Optional(
      Type.Array(record({ name: text('Parameter name as sent.'), reason: text('Why it was refused.') }), {
        description: 'For 400: every bad parameter at once.',
        minItems: 1,
      }),
    ),
  },
  {
    description:
      'RFC 9457 problem details. Extension members may be added (the readiness check adds its checks).',
  },
);

export const problem = (
  description: string,
  extraHeaders: HeaderName[] = [],
  rateLimited = true,
): OpenApiResponse => ({
  description,
  headers: headerRefs([...(rateLimited ? RATE_LIMIT_HEADERS : []), ...EVERY_ANSWER, ...extraHeaders]),
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

export const badRequest = problem(
  'A parameter is unknown, repeated or out of bounds; invalid_params names every one.',
);

/** The answers every /api/v1 operation may give besides its own. */
export function apiResponses(
  ok: { description: string; schema: string; link?: boolean },
  extra: Record<string, OpenApiResponse> = {},
): Record<string, OpenApiResponse> {
  const cacheHeaders: HeaderName[] = [
    'ETag',
    'Cache-Control',
    ...(ok.link ? (['Link'] as HeaderName[]) : []),
  ];
  return {
    '200': {
      description: ok.description,
      headers: headerRefs([...RATE_LIMIT_HEADERS, ...EVERY_ANSWER, ...cacheHeaders]),
      content: json(ok.schema),
    },
    '304': {
      description: 'Not modified: If-None-Match named the current ETag. No body.',
      headers: headerRefs([...RATE_LIMIT_HEADERS, ...EVERY_ANSWER, ...cacheHeaders]),
    },
    ...extra,
    '405': problem('Method not allowed (this API is read-only).', ['Allow']),
    '414': problem('The query string is longer than 2,048 bytes.'),
    '429': problem('Rate limit exceeded.', ['Retry-After']),
    '500': problem('Unexpected error (no internal detail is given).'),
    '503': problem(
      'The search cluster is unreachable or timed out (type about:blank, title "Service Unavailable"; counted by ' +
        'the rate limit, with its headers), or this instance is at capacity and refused the request at once ' +
        `without running it (type ${OVERLOADED_PROBLEM_TYPE}, title "Service overloaded"; not counted, no rate-limit ` +
        'headers). Either way: retry after Retry-After seconds.',
      ['Retry-After'],
      false,
    ),
  };
}

/** The error answers alone: an export has no ETag, so no 304, and its own 200. */
export function withoutSuccess(responses: Record<string, OpenApiResponse>): Record<string, OpenApiResponse> {
  return Object.fromEntries(
    Object.entries(responses).filter(([status]) => status !== '200' && status !== '304'),
  );
}

export const ifNoneMatch = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag from an earlier answer: when it is still current the answer is 304 without a body.',
  schema: { type: 'string' },
};

export const requestIdHeader = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description:
    'Your own id for this request: echoed back (and logged) when it matches ^[A-Za-z0-9._-]{1,128}$; ' +
    'otherwise the answer carries a new UUID.',
  schema: { type: 'string' },
};
