// http/serverSpans: a span per request named by its route template, the status on it, the request's work run in its
// context, a traceparent taken only behind a trusted proxy (and a malformed one ignored), and the log line's
// trace_id. Spans are caught by the SDK's in-memory exporter.
import { Router } from '@koa/router';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import Koa from 'koa';
import type { Logger } from 'pino';
import { applyProxyTrust } from '../../../../src/rateLimit/proxyTrust.js';
import { requestId } from '../../../../src/http/requestId.js';
import { requestLog } from '../../../../src/http/requestLog.js';
import { serverSpans } from '../../../../src/http/serverSpans.js';
import { registerTracing, type Tracing } from '../../../../src/tracing.js';
import { listen, raw, type KoaServer } from '../../../support/koaServer.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

describe('http/serverSpans: a span per request (tracing on)', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  const logged: Record<string, unknown>[] = [];
  const logger = {
    info: (fields: Record<string, unknown>) => logged.push(fields),
    warn: (fields: Record<string, unknown>) => logged.push(fields),
  } as unknown as Logger;
  let tracing: Tracing;
  let direct: KoaServer;
  let proxied: KoaServer;
  /** The trace id each handler saw active, by request id. */
  const activeTraceIds = new Map<string, string | undefined>();

  async function serve(trustProxyHops: number): Promise<KoaServer> {
    const app = new Koa();
    applyProxyTrust(app, trustProxyHops);
    const router = new Router();
    router.get('/health/live', (ctx) => {
      ctx.body = 'live';
    });
    router.get('/api/v1/ppas/:slug', (ctx) => {
      activeTraceIds.set(ctx.get('X-Request-Id'), trace.getActiveSpan()?.spanContext().traceId);
      ctx.status = ctx.params.slug === 'broken' ? 502 : 200;
      ctx.body = 'ok';
    });
    app.use(requestId());
    app.use(serverSpans(tracing.tracer, { trustProxyHops, probes: ['/health/live'] }));
    app.use(requestLog(logger));
    app.use(router.routes());
    return listen(app);
  }

  before(async () => {
    tracing = registerTracing(processor, 'test');
    direct = await serve(0);
    proxied = await serve(1);
  });
  after(async () => {
    await Promise.all([direct.close(), proxied.close()]);
    await tracing.shutdown();
  });
  beforeEach(() => {
    exporter.reset();
    logged.length = 0;
  });

  async function spanOf(
    server: KoaServer,
    path: string,
    headers: Record<string, string>,
  ): Promise<ReadableSpan> {
    await raw(server, path, { headers });
    for (let tries = 0; tries < 100; tries++) {
      await processor.forceFlush();
      const spans = exporter.getFinishedSpans();
      if (spans.length > 0) {
        expect(spans).to.have.length(1);
        return spans[0]!;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no span');
  }

  it('names the span by the route template, with the status, the request id and the active context', async () => {
    const span = await spanOf(direct, '/api/v1/ppas/some-ppa?q=x', { 'X-Request-Id': 'unit-1' });
    expect(span.name).to.equal('GET /api/v1/ppas/:slug');
    expect(span.attributes).to.include({
      'http.route': '/api/v1/ppas/:slug',
      'http.response.status_code': 200,
      'url.path': '/api/v1/ppas/some-ppa',
      'ppa.request_id': 'unit-1',
      'client.address': '127.0.0.1',
    });
    expect(span.status.code).to.equal(SpanStatusCode.UNSET);
    expect(activeTraceIds.get('unit-1')).to.equal(span.spanContext().traceId);
    expect(logged.map((line) => line.trace_id)).to.deep.equal([span.spanContext().traceId]);
  });

  it('an unmatched path: the method alone; a 5xx: an error', async () => {
    const unmatched = await spanOf(direct, '/nowhere', {});
    expect(unmatched.name).to.equal('GET');
    expect(unmatched.attributes).to.not.have.property('http.route');
    expect(unmatched.attributes['http.response.status_code']).to.equal(404);
    exporter.reset();
    const failed = await spanOf(direct, '/api/v1/ppas/broken', {});
    expect(failed.status.code).to.equal(SpanStatusCode.ERROR);
  });

  it('traces no probe (in any case), and logs its line without trace_id', async () => {
    for (const path of ['/health/live', '/HEALTH/Live']) {
      expect((await raw(direct, path)).status, path).to.equal(200);
    }
    const span = await spanOf(direct, '/api/v1/ppas/a', {});
    expect(span.attributes['url.path'], 'the only span: not a probe’s').to.equal('/api/v1/ppas/a');
    expect(logged.slice(0, 2).map((line) => line.trace_id)).to.deep.equal([undefined, undefined]);
  });

  it('ignores a traceparent without a trusted proxy', async () => {
    const span = await spanOf(direct, '/api/v1/ppas/a', { traceparent: TRACEPARENT });
    expect(span.spanContext().traceId).to.not.equal(TRACE_ID);
    expect(span.parentSpanContext).to.equal(undefined);
  });

  it('continues a traceparent behind a trusted proxy, and starts a new trace on a malformed one', async () => {
    const continued = await spanOf(proxied, '/api/v1/ppas/a', { traceparent: TRACEPARENT });
    expect(continued.spanContext().traceId).to.equal(TRACE_ID);
    expect(continued.parentSpanContext?.spanId).to.equal(PARENT_ID);
    expect(logged.map((line) => line.trace_id)).to.deep.equal([TRACE_ID]);
    exporter.reset();
    const malformed = await spanOf(proxied, '/api/v1/ppas/a', { traceparent: `00-${TRACE_ID}-zz-01` });
    expect(malformed.spanContext().traceId).to.not.equal(TRACE_ID);
    expect(malformed.parentSpanContext).to.equal(undefined);
  });
});
