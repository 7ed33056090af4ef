// A client that goes away before its answer is sent abandons its searches: each API request gets an abort signal,
// aborted when the response closes unfinished (the client disconnected, or the server cut it), and the searches
// made for it run with that signal (./requestSignal.ts), so Elasticsearch cancels them too.
import type { Middleware } from 'koa';
import { withRequestSignal } from './requestSignal.js';

export function abandonedSearchesCancelled(): Middleware {
  return (ctx, next) => {
    const controller = new AbortController();
    const response = ctx.res;
    response.once('close', () => {
      if (!response.writableFinished) controller.abort();
    });
    return withRequestSignal(controller.signal, next);
  };
}
