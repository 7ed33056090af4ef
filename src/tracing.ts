// Traces (OpenTelemetry), off unless OTEL_TRACES_EXPORTER=otlp. When on, the process registers a tracer provider
// (the Elasticsearch client finds it through @opentelemetry/api and makes a span per request it sends), the
// AsyncLocalStorage context manager (so those spans know the request they were made for), and the W3C trace-context
// propagator (read only from a trusted proxy: src/http/serverSpans.ts); spans leave in batches over OTLP/HTTP.
// When off nothing is registered, no middleware is installed and the Elasticsearch client makes no span at all.
import {
  context,
  diag,
  DiagLogLevel,
  propagation,
  SpanKind,
  trace,
  type Context,
  type DiagLogger,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { RELEASE } from '../indexContract/contract.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

export interface Tracing {
  /** The API's own spans: the server span of each request, the admission wait. */
  tracer: Tracer;
  /** Sends the spans still held, then unregisters everything (the process, or a test, is done with traces). */
  shutdown(): Promise<void>;
}

type TracingConfig = Pick<
  Config,
  'tracesExporter' | 'otelSdkDisabled' | 'otlpEndpoint' | 'otlpTracesEndpoint' | 'otelServiceName'
>;

export function tracingOn(config: TracingConfig): boolean {
  return config.tracesExporter === 'otlp' && !config.otelSdkDisabled;
}

/** Tracing as the configuration says: undefined when it is off (the default). */
export function startTracing(config: TracingConfig, logger: Logger): Tracing | undefined {
  if (!tracingOn(config)) return undefined;
  // The SDK tells of a failed export through its diagnostic logger, silent unless one is set.
  diag.setLogger(diagnostics(logger.child({ component: 'tracing' })), DiagLogLevel.WARN);
  const url = config.otlpTracesEndpoint ?? config.otlpEndpoint;
  const exporter = new OTLPTraceExporter(url === undefined ? {} : { url });
  return registerTracing(new BatchSpanProcessor(exporter), config.otelServiceName);
}

/**
 * Registers the process's tracing with `processor` receiving the finished spans (the server's batches, or a test's
 * in-memory exporter). One at a time: throws when another is registered.
 */
export function registerTracing(processor: SpanProcessor, serviceName: string): Tracing {
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector, hostDetector] }))
    .merge(resourceFromAttributes({ 'service.name': serviceName, 'service.version': RELEASE }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new RequestSpansOnly(processor)] });
  // The provider first: when another is registered, nothing of it is touched.
  if (!trace.setGlobalTracerProvider(provider)) {
    throw new Error('tracing is registered already: shut the other down first');
  }
  const contextManager = new AsyncLocalStorageContextManager().enable();
  if (
    !context.setGlobalContextManager(contextManager) ||
    !propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  ) {
    unregister();
    throw new Error('a context manager or propagator is registered already');
  }
  return {
    tracer: provider.getTracer('ppa-search-api', RELEASE),
    async shutdown() {
      try {
        await provider.shutdown();
      } finally {
        unregister();
      }
    },
  };
}

function unregister(): void {
  trace.disable();
  propagation.disable();
  context.disable();
  diag.disable();
}

/**
 * Passes on the spans of requests only: a server span and what ran beneath it. The instance's own lookups outside
 * any request (the alias polled every 2 s, the change log's head) would each be a trace of one span, a steady noise
 * that says nothing about a request.
 */
class RequestSpansOnly implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if (span.parentSpanContext !== undefined || span.kind === SpanKind.SERVER) this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

/** The SDK's diagnostics as log lines (warnings and errors only). */
function diagnostics(logger: Logger): DiagLogger {
  const ignore = () => undefined;
  return {
    error: (message, ...args) => logger.warn({ args }, message),
    warn: (message, ...args) => logger.warn({ args }, message),
    info: ignore,
    debug: ignore,
    verbose: ignore,
  };
}
