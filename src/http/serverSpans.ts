// One server span per request when tracing is on (src/tracing.ts): named by the route template, with the status and
// the request id, and the request's work run in its context, so the Elasticsearch client's spans and the admission
// wait are its children. A W3C traceparent continues a trace only from a trusted proxy (TRUST_PROXY_HOPS > 0, the
// rule that lets X-Forwarded-For name the client); otherwise a public client could choose the trace its requests
// join, and the header is ignored. When tracing is off this middleware is not installed at all.
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context as TraceContext,
  type Tracer,
} from '@opentelemetry/api';
import type { Context, Middleware } from 'koa';
import { matchedRouteOf } from './refusalLog.js';
import { requestIdOf } from './requestId.js';

export interface ServerSpanOptions {
  /** TRUST_PROXY_HOPS: above 0, a proxy in front writes the request's headers, and its traceparent is taken. */
  trustProxyHops: number;
  /**
   * The paths of the operators' probes (/health/*), not traced: a probe every few seconds per replica would be a
   * steady stream of traces that says nothing about the clients' requests.
   */
  probes?: readonly string[];
}

export function serverSpans(tracer: Tracer, { trustProxyHops, probes = [] }: ServerSpanOptions): Middleware {
  const parentOf = (ctx: Context): TraceContext =>
    trustProxyHops > 0 ? propagation.extract(ROOT_CONTEXT, ctx.headers) : ROOT_CONTEXT;
  // Compared without case, as the routers match.
  const probePaths = new Set(probes.map((path) => path.toLowerCase()));
  return (ctx, next) => {
    if (probePaths.has(ctx.path.toLowerCase())) return next();
    const parent = parentOf(ctx);
    const span = tracer.startSpan(
      ctx.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': ctx.method,
          'url.path': ctx.path,
          'client.address': ctx.ip,
          'ppa.request_id': requestIdOf(ctx),
        },
      },
      parent,
    );
    ctx.state.traceId = span.spanContext().traceId;
    // Ended when the response is done, not when the middleware returns: an export's body (and its batches) is
    // streamed after that.
    const response = ctx.res;
    response.once('close', () => {
      const route = matchedRouteOf(ctx);
      if (route !== undefined) {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', response.statusCode);
      if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      else if (!response.writableFinished) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'response not finished' });
      }
      span.end();
    });
    return context.with(trace.setSpan(parent, span), next);
  };
}

/** The trace id of the request's server span (undefined when tracing is off). */
export function traceIdOf(ctx: { state: Record<string, unknown> }): string | undefined {
  const id = ctx.state.traceId;
  return typeof id === 'string' ? id : undefined;
}
