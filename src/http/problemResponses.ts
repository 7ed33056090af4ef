// The one place where errors become answers: RFC 9457 problem+json, with the error's own headers, for typed
// ProblemErrors (the search gateway's errors are ones: src/gateway/searchErrors.ts), with two kept apart: overloaded, 503
// with its own type, counted, not logged; a client gone, 499 without a body. Koa/HTTP errors, unknown paths (404)
// and anything else (500, without a word about what went wrong inside).
import type { Context, Middleware } from 'koa';
import { STATUS_CODES } from 'node:http';
import type { Logger } from 'pino';
import {
  CLIENT_CLOSED_REQUEST,
  ClientClosedError,
  InternalServerError,
  OverloadedError,
  ProblemError,
} from './problem.js';
import { markOverloaded, routeOf, type RefusalLog } from './refusalLog.js';
import { requestIdOf } from './requestId.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  invalid_params?: { name: string; reason: string }[];
  [extension: string]: unknown;
}

/** Headers a successful answer may carry that make no sense on an error. */
const SUCCESS_ONLY_HEADERS = ['ETag', 'Last-Modified', 'Link', 'Content-Disposition'];

const OVERLOADED = new OverloadedError();

/** The overload problem as sent, serialized once (no `instance`: the X-Request-Id header names the request). */
export const OVERLOADED_BODY = Buffer.from(JSON.stringify(problemBody(OVERLOADED)));

/**
 * `withoutHeaders`: headers of other layers that an overload refusal does not carry (the rate limit's: a refused
 * request is not counted against the quota).
 */
export function problemResponses(
  logger: Logger,
  refusals?: RefusalLog,
  withoutHeaders: readonly string[] = [],
): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        throw new ProblemError(404, 'Not Found', 'Nothing is served at this path.');
      }
    } catch (error) {
      if (error instanceof ClientClosedError) {
        // Nobody is there to read an answer: the request line (499) is all that is left of it.
        ctx.body = null; // (before the status: an empty body would make it 204)
        ctx.status = CLIENT_CLOSED_REQUEST;
        return;
      }
      if (error instanceof OverloadedError) {
        // Counted, not logged one by one (refusalLog.ts): a refusal must cost next to nothing. The same body as
        // the front door's (frontDoor.ts), and no rate-limit headers: a refusal ran nothing.
        markOverloaded(ctx);
        refusals?.count(routeOf(ctx));
        for (const name of withoutHeaders) ctx.remove(name);
        writeProblem(ctx, OVERLOADED, OVERLOADED_BODY);
        return;
      }
      const problem = toProblem(error);
      logProblem(logger, ctx, problem, error);
      writeProblem(ctx, problem);
    }
  };
}

export function toProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  // http-errors (ctx.throw, Koa itself): client errors whose message is meant to be shown.
  const http = error as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof http.status === 'number' && http.status >= 400 && http.status < 500 && http.expose === true) {
    const title = STATUS_CODES[http.status] ?? 'Bad Request';
    return new ProblemError(http.status, title, typeof http.message === 'string' ? http.message : title);
  }
  return new InternalServerError();
}

export function problemBody(problem: ProblemError, instance?: string): ProblemBody {
  const body: ProblemBody = {
    type: problem.type,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
  };
  if (instance) body.instance = instance;
  if (problem.invalidParams) body.invalid_params = problem.invalidParams;
  // Extension members never replace the standard ones.
  for (const [name, value] of Object.entries(problem.extensions)) if (!(name in body)) body[name] = value;
  return body;
}

/** `body`: the problem as sent, when it is made once (the overload refusal); else made for this request. */
function writeProblem(ctx: Context, problem: ProblemError, body?: Buffer): void {
  for (const name of SUCCESS_ONLY_HEADERS) ctx.remove(name);
  ctx.status = problem.status;
  ctx.set(problem.headers);
  // Errors are about this moment (a 429, a 503, a slug not yet published): never cache them.
  ctx.set('Cache-Control', 'no-store');
  ctx.type = PROBLEM_CONTENT_TYPE;
  ctx.body = body ?? problemBody(problem, ctx.originalUrl);
}

function logProblem(logger: Logger, ctx: Context, problem: ProblemError, error: unknown): void {
  if (problem.status < 500) return; // the request line says enough about a client's mistake
  const fields = { request_id: requestIdOf(ctx), status: problem.status };
  if (problem.status === 500) {
    logger.error({ ...fields, err: error }, 'unexpected error');
    return;
  }
  // An outage repeats on every request: one line with the reason, no stack trace. A problem's message is its
  // detail unless it says more for the log ("Elasticsearch timed out": src/gateway/searchErrors.ts).
  const reason = problem.message;
  logger.warn({ ...fields, reason }, problem.title);
}
