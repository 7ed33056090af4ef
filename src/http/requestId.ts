// Every request gets an id: the client's own X-Request-Id when it is safe to echo, a new UUID otherwise.
import type { Middleware } from 'koa';
import { randomUUID } from 'node:crypto';

/** A client's X-Request-Id that is safe to echo. */
export const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestId(): Middleware {
  return async (ctx, next) => {
    const sent = ctx.get('X-Request-Id');
    const id = CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}

/** The id requestId() gave this request ('' before it ran). */
export function requestIdOf(ctx: { state: Record<string, unknown> }): string {
  return typeof ctx.state.requestId === 'string' ? ctx.state.requestId : '';
}
