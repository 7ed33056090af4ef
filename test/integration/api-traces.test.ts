// Traces over the real app and Elasticsearch, the spans caught by the SDK's in-memory exporter: one server span per
// request with the Elasticsearch client's own spans beneath it (a list with facets, an export's batches), the
// admission wait, the log line's trace_id, a client's traceparent ignored unless a trusted proxy is in front, and no
// span at all from an app with tracing off. Then tracing as the server starts it from OTEL_* variables: the spans
// reach an OTLP/HTTP receiver on loopback.
import { SpanKind, type SpanContext } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { registerTracing, startTracing, type Tracing } from '../../src/tracing.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_PARENT_ID = '00f067aa0ba902b7';
const CLIENT_TRACEPARENT = `00-${CLIENT_TRACE_ID}-${CLIENT_PARENT_ID}-01`;
/** How far apart the SDK may place two instants in the same order (each span anchors its own clock). */
const CLOCK_SLACK_MS = 1;

describe('traces (OpenTelemetry) on the sample index', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-traces');
  /** A second alias of the same index, read by the app with tracing off only: its spans, if any, name it. */
  const untracedAlias = `${alias}-off`;
  const exporter = new InMemorySpanExporter();
  /** Every span started in the process, before any is left out as not a request's. */
  const started: Span[] = [];
  const simple = new SimpleSpanProcessor(exporter);
  const processor: SpanProcessor = {
    onStart: (span, parent) => {
      started.push(span);
      simple.onStart(span, parent);
    },
    onEnd: (span) => simple.onEnd(span),
    forceFlush: () => simple.forceFlush(),
    shutdown: () => simple.shutdown(),
  };
  let tracing: Tracing | undefined;
  /** Tracing on, no proxy trusted (TRUST_PROXY_HOPS=0, the default). */
  let direct: TestApp;
  /** Tracing on behind one trusted proxy (TRUST_PROXY_HOPS=1). */
  let proxied: TestApp;
  /** Tracing off (no tracer), while a provider is registered in the process. */
  let untraced: TestApp;
  /** Tracing on, one search in flight at a time: the others wait in admission's queue. */
  let narrow: TestApp;

  before(async () => {
    await indexSample(client, alias);
    const [index] = Object.keys(await client.indices.getAlias({ name: alias }));
    await client.indices.putAlias({ index: index!, name: untracedAlias });
    tracing = registerTracing(processor, 'ppa-search-api-test');
    const tracer = tracing.tracer;
    const configOverrides = { logLevel: 'info' as const };
    direct = await buildTestApp({ alias, tracer, configOverrides });
    proxied = await buildTestApp({
      alias,
      tracer,
      configOverrides: { ...configOverrides, trustProxyHops: 1 },
    });
    untraced = await buildTestApp({ alias: untracedAlias, configOverrides });
    narrow = await buildTestApp({
      alias,
      tracer,
      configOverrides: { ...configOverrides, admissionMaxInFlight: 1 },
    });
  });

  after(async () => {
    await Promise.all([direct?.close(), proxied?.close(), untraced?.close(), narrow?.close()]);
    await tracing?.shutdown();
    await deleteIndices(client, alias);
    await client.close();
  });

  beforeEach(() => exporter.reset());

  /** The request's log line (by its X-Request-Id). */
  function logLine(app: TestApp, requestId: string): Record<string, unknown> {
    const line = app.logs.find((entry) => entry.msg === 'request' && entry.request_id === requestId);
    expect(line, `the log line of ${requestId}`).to.be.an('object');
    return line!;
  }

  /** The spans of the trace of the server span with this request id, once that span has ended. */
  async function traceOf(requestId: string): Promise<{ server: ReadableSpan; spans: ReadableSpan[] }> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const servers = exporter
        .getFinishedSpans()
        .filter((span) => span.kind === SpanKind.SERVER && span.attributes['ppa.request_id'] === requestId);
      if (servers.length > 0) {
        expect(servers, `server spans of ${requestId}`).to.have.length(1);
        const server = servers[0]!;
        const traceId = server.spanContext().traceId;
        const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
        return { server, spans };
      }
      if (Date.now() > deadline) throw new Error(`no server span for ${requestId}`);
      await sleep(20);
    }
  }

  /** Whether `span` descends from `ancestor` within `spans`. */
  function beneath(span: ReadableSpan, ancestor: ReadableSpan, spans: ReadableSpan[]): boolean {
    let parent: SpanContext | undefined = span.parentSpanContext;
    while (parent) {
      if (parent.spanId === ancestor.spanContext().spanId) return true;
      const parentId = parent.spanId;
      parent = spans.find((candidate) => candidate.spanContext().spanId === parentId)?.parentSpanContext;
    }
    return false;
  }

  const elasticsearchSpans = (spans: ReadableSpan[]) =>
    spans.filter((span) => span.attributes['db.system'] === 'elasticsearch');

  it('a list with facets: one server span by route template, Elasticsearch’s msearch and the admission wait beneath it', async () => {
    const requestId = 'traces-list-facets';
    const response = await fetch(`${direct.url}/api/v1/ppas?facets=technology,country&per_page=5`, {
      headers: { 'X-Request-Id': requestId },
    });
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { meta: { facets?: Record<string, unknown> } };
    expect(Object.keys(body.meta.facets ?? {})).to.have.members(['technology', 'country']);

    const { server, spans } = await traceOf(requestId);
    expect(server.name).to.equal('GET /api/v1/ppas');
    expect(server.attributes).to.include({
      'http.route': '/api/v1/ppas',
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'url.path': '/api/v1/ppas',
    });
    expect(server.parentSpanContext, 'a new root: no traceparent was sent').to.equal(undefined);
    expect(spans.filter((span) => span.kind === SpanKind.SERVER)).to.deep.equal([server]);
    // Every span of the trace hangs from the server span: none lost its parent on the way.
    for (const span of spans) {
      if (span !== server)
        expect(beneath(span, server, spans), `${span.name} beneath the server span`).to.equal(true);
    }
    const searches = elasticsearchSpans(spans);
    expect(searches.map((span) => span.name)).to.include('msearch');
    const msearch = searches.find((span) => span.name === 'msearch')!;
    expect(msearch.kind).to.equal(SpanKind.CLIENT);
    expect(msearch.parentSpanContext?.spanId).to.equal(server.spanContext().spanId);
    expect(String(msearch.attributes['db.collection.name'])).to.equal(alias);
    const admission = spans.filter((span) => span.name === 'admission');
    expect(admission, 'the admission wait of the msearch').to.have.length.of.at.least(1);
    expect(admission[0]!.parentSpanContext?.spanId).to.equal(server.spanContext().spanId);
    expect(admission[0]!.attributes['ppa.admission.limit']).to.be.a('number');

    expect(logLine(direct, requestId).trace_id).to.equal(server.spanContext().traceId);
  });

  it('an export: the server span ends with the body, its batch searches beneath it', async () => {
    const requestId = 'traces-export';
    const response = await fetch(`${direct.url}/api/v1/ppas/export?format=ndjson&fields=capacity_mw`, {
      headers: { 'X-Request-Id': requestId },
    });
    expect(response.status).to.equal(200);
    const lines = (await response.text()).split('\n').filter(Boolean);
    expect(lines.length, 'the sample is more than two batches').to.be.above(400);

    const { server, spans } = await traceOf(requestId);
    expect(server.name).to.equal('GET /api/v1/ppas/export');
    expect(server.attributes['http.response.status_code']).to.equal(200);
    // One search per batch of 200 (the first before the status line, the rest while the body streams), each a
    // child of the server span, which ends only after the last.
    const batches = elasticsearchSpans(spans).filter((span) => span.name === 'search');
    expect(batches.length, 'batch searches').to.equal(Math.ceil(lines.length / 200));
    for (const batch of batches) {
      expect(batch.parentSpanContext?.spanId, 'a batch’s parent').to.equal(server.spanContext().spanId);
      expect(hrtimeMs(batch.endTime)).to.be.at.most(hrtimeMs(server.endTime) + CLOCK_SLACK_MS);
    }
    expect(logLine(direct, requestId).trace_id).to.equal(server.spanContext().traceId);
  });

  it('a search that waited in admission’s queue is traced in its own request, not in the one whose end let it in', async () => {
    const requestIds = Array.from({ length: 6 }, (_, index) => `traces-queued-${index}`);
    const answers = await Promise.all(
      requestIds.map((requestId, index) =>
        fetch(`${narrow.url}/api/v1/ppas?facets=technology&q=solar&page=${index + 1}&per_page=3`, {
          headers: { 'X-Request-Id': requestId },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).to.deep.equal(requestIds.map(() => 200));
    let waited = 0;
    for (const requestId of requestIds) {
      const { server, spans } = await traceOf(requestId);
      // The page and its facet counts in one search (or msearch) on the alias; the live state's lookups aside.
      const searches = elasticsearchSpans(spans).filter(
        (span) =>
          ['search', 'msearch'].includes(span.name) && span.attributes['db.collection.name'] === alias,
      );
      expect(searches, `${requestId}: its own search`).to.have.length(1);
      expect(searches[0]!.parentSpanContext?.spanId, requestId).to.equal(server.spanContext().spanId);
      const admission = spans.find((span) => span.name === 'admission')!;
      // The wait ends before the search starts (give or take the SDK's clock, which anchors each span on its own).
      expect(hrtimeMs(admission.endTime)).to.be.at.most(hrtimeMs(searches[0]!.startTime) + CLOCK_SLACK_MS);
      if (Number(admission.attributes['ppa.admission.in_flight']) >= 1) waited++;
    }
    expect(waited, 'requests that found the one slot taken').to.be.above(0);
  });

  it('ignores a client’s traceparent without TRUST_PROXY_HOPS: a new root trace', async () => {
    const requestId = 'traces-untrusted-parent';
    const response = await fetch(`${direct.url}/api/v1/ppas?per_page=1`, {
      headers: { 'X-Request-Id': requestId, traceparent: CLIENT_TRACEPARENT },
    });
    expect(response.status).to.equal(200);
    const { server, spans } = await traceOf(requestId);
    expect(server.spanContext().traceId).to.not.equal(CLIENT_TRACE_ID);
    expect(server.parentSpanContext).to.equal(undefined);
    expect(elasticsearchSpans(spans)).to.have.length.of.at.least(1);
    expect(
      exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === CLIENT_TRACE_ID),
    ).to.deep.equal([]);
    expect(logLine(direct, requestId).trace_id).to.equal(server.spanContext().traceId);
  });

  it('continues the trusted proxy’s traceparent with TRUST_PROXY_HOPS=1', async () => {
    const requestId = 'traces-trusted-parent';
    const response = await fetch(`${proxied.url}/api/v1/ppas?per_page=1`, {
      headers: {
        'X-Request-Id': requestId,
        traceparent: CLIENT_TRACEPARENT,
        'X-Forwarded-For': '203.0.113.7',
      },
    });
    expect(response.status).to.equal(200);
    const { server, spans } = await traceOf(requestId);
    expect(server.spanContext().traceId).to.equal(CLIENT_TRACE_ID);
    expect(server.parentSpanContext?.spanId).to.equal(CLIENT_PARENT_ID);
    expect(server.parentSpanContext?.isRemote).to.equal(true);
    expect(server.attributes['client.address'], 'the client as the proxy names it').to.equal('203.0.113.7');
    const searches = elasticsearchSpans(spans);
    expect(searches).to.have.length.of.at.least(1);
    for (const search of searches) expect(beneath(search, server, spans)).to.equal(true);
    expect(logLine(proxied, requestId).trace_id).to.equal(CLIENT_TRACE_ID);
  });

  it('with tracing off the app makes no span, not even the Elasticsearch client’s, and logs no trace_id', async () => {
    const requestId = 'traces-off';
    const response = await fetch(`${untraced.url}/api/v1/ppas?facets=technology&per_page=1`, {
      headers: { 'X-Request-Id': requestId, traceparent: CLIENT_TRACEPARENT },
    });
    expect(response.status).to.equal(200);
    // The same request to a traced app shows what would have been recorded by now.
    const traced = await fetch(`${direct.url}/api/v1/ppas?facets=technology&per_page=1`, {
      headers: { 'X-Request-Id': 'traces-on-beside-off' },
    });
    expect(traced.status).to.equal(200);
    const { spans } = await traceOf('traces-on-beside-off');
    expect(elasticsearchSpans(spans)).to.have.length.of.at.least(1);
    expect(exporter.getFinishedSpans().filter((span) => !spans.includes(span))).to.deep.equal([]);
    // Not even started and then left out: the untraced app's client (its searches and its own lookups of the
    // alias since it started) made none.
    const ofUntracedApp = started.filter((span) => Object.values(span.attributes).includes(untracedAlias));
    expect(ofUntracedApp.map((span) => span.name)).to.deep.equal([]);
    expect(
      started.filter((span) => Object.values(span.attributes).includes(alias)).length,
      'the traced apps’ spans name their alias',
    ).to.be.above(0);
    expect(logLine(untraced, requestId)).to.not.have.property('trace_id');
  });
});

describe('traces sent over OTLP/HTTP as OTEL_* variables say', function () {
  this.timeout(120_000);
  const client = testEsClient();
  const alias = uniqueName('api-traces-otlp');
  const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  // An OTLP/HTTP receiver of our own on loopback: it keeps what it is sent and answers as a collector does.
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  before(async () => {
    await indexSample(client, alias);
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
  });

  after(async () => {
    receiver.close();
    await deleteIndices(client, alias);
    await client.close();
  });

  it('OTEL_TRACES_EXPORTER=otlp with OTEL_EXPORTER_OTLP_ENDPOINT: the request’s spans reach <endpoint>/v1/traces', async () => {
    const { port } = receiver.address() as AddressInfo;
    const config = loadConfig({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_SERVICE_NAME: 'ppa-search-api-otlp-test',
    });
    const tracing = startTracing(config, pino({ level: 'silent' }));
    expect(tracing, 'tracing on').to.not.equal(undefined);
    let app: TestApp | undefined;
    try {
      app = await buildTestApp({ alias, tracer: tracing!.tracer, configOverrides: { logLevel: 'info' } });
      const response = await fetch(`${app.url}/api/v1/ppas?facets=technology&per_page=2`, {
        headers: { 'X-Request-Id': 'traces-otlp' },
      });
      expect(response.status).to.equal(200);
      await response.arrayBuffer();
    } finally {
      await app?.close(); // every response closed: every server span ended

      await tracing!.shutdown(); // sends what the batch processor still holds
    }
    const traceId = app!.logs.find((line) => line.request_id === 'traces-otlp')?.trace_id;
    expect(traceId, 'trace_id in the log line').to.match(/^[0-9a-f]{32}$/);

    expect(received.length, 'requests to the receiver').to.be.above(0);
    for (const request of received) {
      expect(request.path).to.equal('/v1/traces');
      expect(request.headers['content-type']).to.equal('application/json');
    }
    const exported = received.flatMap((request) => (JSON.parse(request.body) as OtlpTraces).resourceSpans);
    const services = exported.map(
      (resource) =>
        resource.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue,
    );
    expect(new Set(services)).to.deep.equal(new Set(['ppa-search-api-otlp-test']));
    const spans = exported.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
    const ofRequest = spans.filter((span) => span.traceId === traceId);
    const server = ofRequest.find((span) => span.name === 'GET /api/v1/ppas');
    expect(server, 'the server span').to.be.an('object');
    const searches = ofRequest.filter((span) => ['search', 'msearch'].includes(span.name));
    expect(searches.length, 'Elasticsearch spans').to.be.above(0);
    for (const search of searches) expect(search.parentSpanId).to.equal(server!.spanId);
  });
});

/** What an OTLP/HTTP JSON export holds, as far as the test reads it. */
interface OtlpTraces {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: { traceId: string; spanId: string; parentSpanId?: string; name: string }[] }[];
  }[];
}

function hrtimeMs([seconds, nanoseconds]: [number, number]): number {
  return seconds * 1000 + nanoseconds / 1e6;
}
