// src/tracing.ts: off unless OTEL_TRACES_EXPORTER=otlp (and then nothing is registered), one registration at a time,
// undone by shutdown, and only the spans of requests passed on (a root span of the instance's own is left out).
import { context, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config.js';
import { registerTracing, startTracing, tracingOn } from '../../../src/tracing.js';

const silent = pino({ level: 'silent' });

describe('tracing', () => {
  it('is off by default, on with OTEL_TRACES_EXPORTER=otlp, off again with OTEL_SDK_DISABLED=true', () => {
    expect(tracingOn(loadConfig({}))).to.equal(false);
    expect(tracingOn(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp' }))).to.equal(true);
    expect(tracingOn(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }))).to.equal(
      false,
    );
  });

  it('when off registers nothing: spans stay the API’s no-op ones', () => {
    expect(startTracing(loadConfig({}), silent)).to.equal(undefined);
    const span = trace.getTracer('test').startSpan('nothing');
    expect(span.isRecording()).to.equal(false);
    span.end();
  });

  it('passes on server spans and what ran beneath them, not a root span of the instance’s own', async () => {
    const exporter = new InMemorySpanExporter();
    const processor = new SimpleSpanProcessor(exporter);
    const tracing = registerTracing(processor, 'test');
    try {
      const tracer = trace.getTracer('test');
      const server = tracer.startSpan('GET /x', { kind: SpanKind.SERVER });
      const child = tracer.startSpan(
        'search',
        { kind: SpanKind.CLIENT },
        trace.setSpan(context.active(), server),
      );
      const alone = tracer.startSpan('indices.get_alias', { kind: SpanKind.CLIENT });
      for (const span of [child, alone, server]) span.end();
      await processor.forceFlush(); // (the host's resource attributes are read asynchronously)
      expect(exporter.getFinishedSpans().map((span) => span.name)).to.deep.equal(['search', 'GET /x']);
    } finally {
      await tracing.shutdown();
    }
  });

  it('registers one at a time, and shutdown undoes it', async () => {
    const first = registerTracing(new SimpleSpanProcessor(new InMemorySpanExporter()), 'test');
    try {
      expect(() => registerTracing(new SimpleSpanProcessor(new InMemorySpanExporter()), 'test')).to.throw(
        /registered already/,
      );
      const span = trace.getTracer('test').startSpan('still the first');
      expect(span.isRecording(), 'the first one untouched').to.equal(true);
      span.end();
    } finally {
      await first.shutdown();
    }
    const span = trace.getTracer('test').startSpan('after');
    expect(span.isRecording(), 'no provider after shutdown').to.equal(false);
    span.end();
    const again = registerTracing(new SimpleSpanProcessor(new InMemorySpanExporter()), 'test');
    await again.shutdown();
  });
});
