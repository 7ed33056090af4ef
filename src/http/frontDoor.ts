// The front door: while the instance sheds, a request that would need a search is refused here, before any of
// its work: before Koa builds a context, before the rate limiter's round trip (a refused request runs nothing, so
// it does not count against the client's quota), before parsing and building its query. The answer is the
// overload problem, its body and headers made once; only the request id is the request's own. What admission
// would admit, a cached answer (asked by the URL it was answered for), the pages, the OpenAPI document and
// /health/* pass on to the app as usual.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { corsHeaders } from './cors.js';
import { OverloadedError } from './problem.js';
import { OVERLOADED_BODY, PROBLEM_CONTENT_TYPE } from './problemResponses.js';
import { CLIENT_REQUEST_ID } from './requestId.js';
import { SECURITY_HEADERS } from './securityHeaders.js';

export interface FrontDoorOptions {
  /** Whether a search asked now would be admitted (Admission.admitsNow); false: the instance sheds. */
  admitsNow: () => boolean;
  /** The route templates that need a search, and the pattern of each (matched like the router: any case). */
  searchRoutes: readonly SearchRoute[];
  /** Whether the response cache holds the answer to this URL (then the app answers it, from the cache). */
  holdsAnswer?: (url: string) => boolean;
  /** The rate limit's header names, exposed to pages as the app's CORS layer does. */
  exposedHeaders: readonly string[];
  /** Told of each refusal: the route template, the method and the seconds it took (metrics, the refusal log). */
  refused: (route: string, method: string, seconds: number) => void;
}

export interface SearchRoute {
  /** The router's template, `/api/v1/ppas/:slug`: the label metrics and logs use. */
  route: string;
  pattern: RegExp;
  /** It also takes a form POST (the reconciliation services' batches): a POST is refused like a GET. */
  form: boolean;
}

/**
 * A route template (`/api/v1/ppas/{slug}`) as the router matches it: any case, a trailing slash allowed; `form`:
 * it takes a form POST too.
 */
export function searchRoute(template: string, route: string, form = false): SearchRoute {
  const literal = template
    .split(/\{[A-Za-z_]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return { route, pattern: new RegExp(`^${literal}/?$`, 'i'), form };
}

/** Answers (true) a request it refuses; false: the app answers it. */
export type FrontDoor = (request: IncomingMessage, response: ServerResponse) => boolean;

export function frontDoor(options: FrontDoorOptions): FrontDoor {
  const { admitsNow, searchRoutes, holdsAnswer, refused } = options;
  // Everything but the request id, as the app's own layers set them on the same refusal.
  const fixedHeaders: string[] = [
    ...Object.entries(SECURITY_HEADERS).flat(),
    ...Object.entries(corsHeaders(options.exposedHeaders)).flat(),
    ...Object.entries(new OverloadedError().headers).flat(),
    'Cache-Control',
    'no-store',
    'Content-Type',
    `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    'Content-Length',
    String(OVERLOADED_BODY.length),
  ];
  return (request, response) => {
    if (admitsNow()) return false;
    const started = process.hrtime.bigint();
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return false;
    const url = request.url ?? '/';
    const end = url.indexOf('?');
    const path = end === -1 ? url : url.slice(0, end);
    const route = searchRoutes.find((candidate) => candidate.pattern.test(path));
    if (!route || (method === 'POST' && !route.form)) return false;
    // A POST's answer is never kept (its query is in its body); its body is left unread (Node discards it).
    if (method !== 'POST' && holdsAnswer?.(url)) return false;
    const sent = request.headers['x-request-id'];
    const id = typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
    response.writeHead(503, [...fixedHeaders, 'X-Request-Id', id]);
    response.end(method === 'HEAD' ? undefined : OVERLOADED_BODY);
    refused(route.route, method, Number(process.hrtime.bigint() - started) / 1e9);
    return true;
  };
}
