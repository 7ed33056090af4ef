// The admission wait in a request's trace (tracing on): a span from the search's arrival to its admission (or its
// refusal), beside the Elasticsearch client's spans. The search itself runs in the request's context again: a
// queued search is started by p-queue when another one ends, in that other request's context, and the client's
// span would otherwise join the wrong trace.
import { context, SpanStatusCode, trace, type Context, type Tracer } from '@opentelemetry/api';
import type { Admission } from './admission.js';

/** The context of the request being answered when it is traced; undefined outside a request (no span made). */
export function requestTraceContext(): Context | undefined {
  const active = context.active();
  return trace.getSpan(active) ? active : undefined;
}

/** Runs `search` through `admission`, the wait for its slot a span of the request's trace. */
export async function admitTraced<T>(
  tracer: Tracer,
  admission: Admission,
  search: () => Promise<T>,
  signal: AbortSignal | undefined,
  request: Context,
): Promise<T> {
  const before = admission.state();
  const span = tracer.startSpan(
    'admission',
    {
      attributes: {
        'ppa.admission.limit': before.limit,
        'ppa.admission.in_flight': before.inFlight,
        'ppa.admission.queued': before.queued,
      },
    },
    request,
  );
  let waiting = true;
  try {
    return await admission.run(() => {
      waiting = false;
      span.end();
      return context.with(request, search);
    }, signal);
  } catch (error) {
    if (waiting) {
      // Refused (overloaded) or given up (the client left) before a slot came.
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      span.end();
    }
    throw error;
  }
}
