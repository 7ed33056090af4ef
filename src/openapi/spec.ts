// The OpenAPI 3.1 document of the API. Query parameters come from the parameter modules' own schemas (the
// ones ajv validates with), response bodies from ./schemas.ts; a test keeps both true against real answers.
import { listParameters, MAX_PER_PAGE, MAX_RESULT_WINDOW } from '../params/list.js';
import { slugSchema } from '../params/detail.js';
import { statisticsParameters } from '../params/statistics.js';
import { changesParameters, feedParameters } from '../params/changes.js';
import { suggestParameters } from '../params/suggest.js';
import { exportParameters } from '../params/export.js';
import { ALLOWED_METHODS, OVERLOADED_PROBLEM_TYPE } from '../http/problem.js';
import { responseSchemas } from './schemas.js';
import { apiPath } from '../http/apiPath.js';

export type OpenApiSpec = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, Record<string, unknown>>; [kind: string]: unknown };
};

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

export interface OpenApiOptions {
  /** PUBLIC_BASE_URL: the document's server; unset: the server is the document's own origin ("/"). */
  publicBaseUrl?: string;
  /** package.json version. */
  version?: string;
}

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  description,
  schema,
});

const headers = {
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
  'Content-Disposition': header('`attachment; filename="ppas-<UTC date>.<csv|ndjson>"`.'),
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

type HeaderName = keyof typeof headers;

/** Sent on every answer, whatever the path or status. */
const EVERY_ANSWER: HeaderName[] = [
  'X-Request-Id',
  'Access-Control-Allow-Origin',
  'Access-Control-Expose-Headers',
  'X-Content-Type-Options',
];

const RATE_LIMIT_HEADERS: HeaderName[] = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

const headerRefs = (names: HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const json = (schema: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
});

const problem = (
  description: string,
  extraHeaders: HeaderName[] = [],
  rateLimited = true,
): OpenApiResponse => ({
  description,
  headers: headerRefs([...(rateLimited ? RATE_LIMIT_HEADERS : []), ...EVERY_ANSWER, ...extraHeaders]),
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** The answers every /api/v1 operation may give besides its own. */
function apiResponses(
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
      'The search cluster is unreachable or timed out (type about:blank, title "Service Unavailable"), or this ' +
        `instance is at capacity and refused the request at once without running it (type ${OVERLOADED_PROBLEM_TYPE}, ` +
        'title "Service overloaded"). Either way: retry after Retry-After seconds.',
      ['Retry-After'],
    ),
  };
}

/** The error answers alone: an export has no ETag, so no 304, and its own 200. */
function withoutSuccess(responses: Record<string, OpenApiResponse>): Record<string, OpenApiResponse> {
  return Object.fromEntries(
    Object.entries(responses).filter(([status]) => status !== '200' && status !== '304'),
  );
}

const ifNoneMatch = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'An ETag from an earlier answer: when it is still current the answer is 304 without a body.',
  schema: { type: 'string' },
};

const requestIdHeader = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description:
    'Your own id for this request: echoed back (and logged) when it matches ^[A-Za-z0-9._-]{1,128}$; ' +
    'otherwise the answer carries a new UUID.',
  schema: { type: 'string' },
};

const badRequest = problem(
  'A parameter is unknown, repeated or out of bounds; invalid_params names every one.',
);

/** HEAD is GET without the body: same parameters, same statuses and headers. */
function withHead(get: OpenApiOperation): Record<string, OpenApiOperation> {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, { content: _content, ...rest }]) => [status, rest]),
  );
  return {
    get,
    head: {
      ...get,
      operationId: `${get.operationId}Head`,
      summary: `${String(get.summary)} (headers only)`,
      responses,
    },
  };
}

export function buildOpenApiSpec(options: OpenApiOptions = {}): OpenApiSpec {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'PPA search API',
      version: options.version ?? '1.0.0',
      summary: 'Read-only search over published Power Purchase Agreements.',
      description: [
        'Public, read-only JSON API; no credentials are read or required.',
        `Methods: ${ALLOWED_METHODS} (OPTIONS answers CORS preflight, 204, never rate limited); any other method on a`,
        'known path is 405. Every response carries `Access-Control-Allow-Origin: *`, `X-Content-Type-Options: nosniff`',
        'and `X-Request-Id`. Errors are `application/problem+json` (RFC 9457).',
        '',
        'Rate limit: every `/api/v1` request (304s and errors included) counts against a per-client-IP quota',
        '(default 60 per 60 s, shared by all instances); `/health/*` is not limited.',
      ].join('\n'),
      // The interactive reference is the contact point; its URL is absolute only when the public base is known.
      contact: {
        name: 'PPA search API reference',
        ...(options.publicBaseUrl ? { url: `${options.publicBaseUrl.replace(/\/+$/, '')}/api/v1/docs` } : {}),
      },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // A public API: no operation needs credentials (linters ask that this be said, not left out).
    security: [],
    servers: [{ url: options.publicBaseUrl ?? '/' }],
    tags: [
      { name: 'ppas', description: 'Published Power Purchase Agreements.' },
      { name: 'meta', description: 'This document and the health checks.' },
    ],
    paths: {
      [apiPath('/ppas')]: withHead({
        operationId: 'listPpas',
        tags: ['ppas'],
        summary: 'List published, active PPAs',
        description:
          'Filters combine with AND. Without sort: relevance with q, recent without. Every ordering ends with slug ' +
          `ascending. per_page is at most ${MAX_PER_PAGE}; page × per_page may not exceed ${MAX_RESULT_WINDOW}. ` +
          'A page past the last is 200 with an empty data array.',
        parameters: [...listParameters, ifNoneMatch, requestIdHeader],
        responses: apiResponses(
          { description: 'A page of PPAs with paging links.', schema: 'PpaList', link: true },
          { '400': badRequest },
        ),
      }),
      [apiPath('/ppas/statistics')]: withHead({
        operationId: 'ppaStatistics',
        tags: ['ppas'],
        summary: 'Portfolio statistics over published, active PPAs',
        description:
          'Accepts the list filters and describes only the matching PPAs; page, per_page and sort are not ' +
          'statistics parameters (400). Capacities are MW rounded to 0.1, shares 0..1 rounded to 0.0001.',
        parameters: [...statisticsParameters, ifNoneMatch, requestIdHeader],
        responses: apiResponses(
          { description: 'Statistics of the matching PPAs.', schema: 'Statistics' },
          { '400': badRequest },
        ),
      }),
      [apiPath('/ppas/export')]: withHead({
        operationId: 'exportPpas',
        tags: ['ppas'],
        summary: 'Every matching PPA as CSV or NDJSON, streamed',
        description:
          'The list filters, q and sort, over every match (no pages). CSV: RFC 4180, UTF-8, a header row, ' +
          'risk_features joined by ";", empty cells for null, and any cell beginning with =, +, -, @, tab or CR ' +
          "prefixed with ' (spreadsheet formula injection). NDJSON: one list item per line. Streamed from " +
          'Elasticsearch in batches; if Elasticsearch fails mid-stream the connection is cut (no final chunk), ' +
          'never ended as if complete. Counts one request against the rate limit; each client runs one export at ' +
          'a time and each instance at most EXPORT_CONCURRENCY: beyond that 429 with Retry-After.',
        parameters: [...exportParameters, requestIdHeader],
        responses: {
          ...withoutSuccess(apiResponses({ description: '', schema: 'PpaList' }, { '400': badRequest })),
          '200': {
            description: 'The export (the body is streamed).',
            headers: headerRefs([
              ...RATE_LIMIT_HEADERS,
              ...EVERY_ANSWER,
              'Content-Disposition',
              'Changes-Since',
            ]),
            content: {
              'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row.' } },
              'application/x-ndjson': {
                schema: { type: 'string', description: 'One JSON list item per line.' },
              },
            },
          },
        },
      }),
      [apiPath('/ppas/changes')]: withHead({
        operationId: 'ppaChanges',
        tags: ['ppas'],
        summary: 'Every change to what the API serves, in order, from since',
        description:
          'Oldest first: published, updated, deactivated, reactivated (type upsert), unpublished, deleted (type ' +
          'remove), from sync, reindexes and rollbacks alike; tokens only grow. The list filters and q match each ' +
          "event's PPA as it was in that change (a removal as last served). Follow meta.next (links.next) until data " +
          'is empty, then poll. A since older than the retention (CHANGES_RETENTION_DAYS, default 90) is 410: take ' +
          'a new export. "changes" is never looked up as a slug.',
        parameters: [...changesParameters, ifNoneMatch, requestIdHeader],
        responses: apiResponses(
          { description: 'The next events and where to go on from.', schema: 'Changes' },
          {
            '400': badRequest,
            '410': problem(
              'since is older than the change log retains (or from a log made anew): export again.',
            ),
          },
        ),
      }),
      [apiPath('/ppas/feed')]: withHead({
        operationId: 'ppaFeed',
        tags: ['ppas'],
        summary: 'An Atom feed of the newest 50 changes matching a search',
        description:
          'Atom 1.0 (RFC 4287) for any list filters and q: one entry per change (tag URI id, updated = when it ' +
          'reached the index, a title saying what happened, a link to the PPA, a summary). rel="self" is this URL, ' +
          'rel="alternate" the explorer with the same search. Answers If-None-Match and If-Modified-Since with 304. ' +
          '"feed" is never looked up as a slug.',
        parameters: [
          ...feedParameters,
          ifNoneMatch,
          {
            name: 'If-Modified-Since',
            in: 'header',
            required: false,
            description: 'An HTTP-date: 304 when no matching change is newer (ignored with If-None-Match).',
            schema: { type: 'string' },
          },
          requestIdHeader,
        ],
        responses: {
          ...apiResponses({ description: '', schema: 'Changes' }, { '400': badRequest }),
          '200': {
            description: 'The feed.',
            headers: headerRefs([
              ...RATE_LIMIT_HEADERS,
              ...EVERY_ANSWER,
              'ETag',
              'Cache-Control',
              'Last-Modified',
            ]),
            content: { 'application/atom+xml': { schema: { type: 'string', description: 'Atom 1.0 XML.' } } },
          },
          '304': {
            description: 'Not modified (If-None-Match or If-Modified-Since). No body.',
            headers: headerRefs([
              ...RATE_LIMIT_HEADERS,
              ...EVERY_ANSWER,
              'ETag',
              'Cache-Control',
              'Last-Modified',
            ]),
          },
        },
      }),
      [apiPath('/ppas/suggest')]: withHead({
        operationId: 'suggestPpas',
        tags: ['ppas'],
        summary: 'Project names as the user types, for a search box',
        description:
          'Published, active PPAs whose name matches what was typed: the last word as a prefix, one typo in words ' +
          'of five letters or more, accents and case ignored; the whole name first, then names that start with ' +
          'it. "suggest" is never looked up as a slug. Counts against the rate limit like every /api/v1 request.',
        parameters: [...suggestParameters, ifNoneMatch, requestIdHeader],
        responses: apiResponses(
          { description: 'Suggestions, best first.', schema: 'Suggestions' },
          { '400': badRequest },
        ),
      }),
      [apiPath('/ppas/{slug}')]: withHead({
        operationId: 'getPpa',
        tags: ['ppas'],
        summary: 'One published PPA (active or not)',
        description: 'Takes no query parameters (any is 400). "statistics" is never looked up as a slug.',
        parameters: [
          {
            name: 'slug',
            in: 'path',
            required: true,
            description: slugSchema.description,
            schema: slugPathSchema(),
          },
          ifNoneMatch,
          requestIdHeader,
        ],
        responses: apiResponses(
          { description: 'The PPA with procurement, versions and documents.', schema: 'PpaDetailResponse' },
          {
            '400': badRequest,
            '404': problem('No published PPA has this slug (unknown and unpublished are indistinguishable).'),
          },
        ),
      }),
      [apiPath('/openapi.json')]: withHead({
        operationId: 'openApiDocument',
        tags: ['meta'],
        summary: 'This OpenAPI 3.1 document',
        description: 'Takes no query parameters (any is 400).',
        parameters: [ifNoneMatch, requestIdHeader],
        responses: apiResponses(
          { description: 'The OpenAPI document.', schema: 'OpenApiDocument' },
          { '400': badRequest },
        ),
      }),
      '/health/live': withHead({
        operationId: 'liveness',
        tags: ['meta'],
        summary: 'Liveness: 200 while the process runs (not rate limited)',
        description:
          'Answers without asking Elasticsearch or Redis: for restarting a hung process, not for routing.',
        parameters: [requestIdHeader],
        responses: {
          '200': {
            description: 'The process is up.',
            headers: headerRefs(EVERY_ANSWER),
            content: json('Liveness'),
          },
          '405': problem('Method not allowed.', ['Allow'], false),
        },
      }),
      '/health/ready': withHead({
        operationId: 'readiness',
        tags: ['meta'],
        summary: 'Readiness: the search cluster answers and the alias exists (not rate limited)',
        parameters: [requestIdHeader],
        description:
          'The rate limiter is reported but never makes the instance unready: degraded means Redis is away and ' +
          'this instance limits in memory. Load is reported too, never a reason to be unready: shedding means ' +
          'searches beyond capacity are being refused (503 overloaded).',
        responses: {
          '200': { description: 'Ready.', headers: headerRefs(EVERY_ANSWER), content: json('Readiness') },
          '405': problem('Method not allowed.', ['Allow'], false),
          '503': {
            description: 'Not ready: the search cluster is unreachable or the alias is missing.',
            headers: headerRefs([...EVERY_ANSWER, 'Retry-After']),
            content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/NotReady' } } },
          },
        },
      }),
    },
    components: {
      schemas: responseSchemas,
      headers,
    },
  };
}

function slugPathSchema(): Record<string, unknown> {
  const { description: _description, ...schema } = slugSchema;
  return schema;
}
