// One log line per request, written when the answer (error or not) is settled.
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { requestIdOf } from './requestId.js';

export function requestLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
      const line = {
        request_id: requestIdOf(ctx),
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms,
        ip: ctx.ip,
      };
      if (ctx.status >= 500) logger.warn(line, 'request');
      else logger.info(line, 'request');
    }
  };
}
