// One log line per request, written when the answer (error or not) is settled; overload refusals are counted instead.
// With tracing on it carries the request's trace_id.
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { wasOverloaded } from './refusalLog.js';
import { requestIdOf } from './requestId.js';
import { traceIdOf } from './serverSpans.js';

export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      // Refused for overload: counted by refusalLog.ts, one line an interval, not one a request.
      if (!wasOverloaded(ctx)) logRequest(logger, ctx, started);
    }
  };
}

function logRequest(logger: Logger, ctx: Context, started: bigint): void {
  const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
  const line: Record<string, unknown> = {
    request_id: requestIdOf(ctx),
    method: ctx.method,
    path: ctx.path,
    status: ctx.status,
    ms,
    ip: ctx.ip,
  };
  // With tracing on (src/http/serverSpans.ts): the line and the trace are found from each other.
  const traceId = traceIdOf(ctx);
  if (traceId !== undefined) line.trace_id = traceId;
  if (ctx.status >= 500) logger.warn(line, 'request');
  else logger.info(line, 'request');
}
