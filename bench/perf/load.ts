// One load run with autocannon: a fixed number of connections cycling through the mix for a fixed time. Every
// connection starts at its own place in the mix (so they do not send the same request in step), and every
// response time is kept at full resolution (autocannon's own histogram rounds to whole milliseconds, too coarse
// for a 1 ms overhead target) and by kind of request.
import autocannon from 'autocannon';
import { clientHeadersFor, type EsTarget } from './rawElasticsearch.js';
import type { MixRequest, RequestKind } from './requestMix.js';

export type Side = 'api' | 'raw';

interface TaggedRequest extends autocannon.Request {
  kind: RequestKind;
}

export interface LoadTarget {
  side: Side;
  url: string;
  requests: TaggedRequest[];
}

/** `headers`: e.g. `Accept-Encoding: gzip`, as browsers send it. */
export function apiTarget(apiUrl: string, mix: MixRequest[], headers?: Record<string, string>): LoadTarget {
  return {
    side: 'api',
    url: apiUrl,
    requests: mix.map((request) => ({
      kind: request.kind,
      method: 'GET',
      path: request.apiPath,
      ...(headers ? { headers } : {}),
    })),
  };
}

/**
 * `POST /<alias>/_search` with the API's body and the headers its Elasticsearch client sends; `headers`: more,
 * e.g. `Accept-Encoding: gzip` when the raw side gets the same client as the API side.
 */
export function rawTarget(
  es: EsTarget,
  alias: string,
  mix: MixRequest[],
  headers?: Record<string, string>,
): LoadTarget {
  return {
    side: 'raw',
    url: es.url,
    requests: mix.map((request) => ({
      kind: request.kind,
      method: request.esMethod ?? 'POST',
      path: `/${alias}/${request.esEndpoint}`,
      headers: { ...es.headers, ...clientHeadersFor(request.esEndpoint), ...headers },
      ...(request.esMethod === 'GET' ? {} : { body: request.esBody }),
    })),
  };
}

export interface LoadResult {
  side: Side;
  seconds: number;
  connections: number;
  /** 2xx answers. */
  ok: number;
  /** Other answers and transport errors (timeouts, resets). */
  errors: number;
  statuses: Record<string, number>;
  requestsPerSecond: number;
  /** Sorted response times (ms) of the 2xx answers, all and by kind. */
  latencies: number[];
  latenciesByKind: Partial<Record<RequestKind, number[]>>;
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  /**
   * Send exactly this many requests instead of running for a time: each connection sends amount/connections of
   * them from its own place in the list, so with a list of `amount` requests none is sent twice.
   */
  amount?: number;
  /** Per-request timeout, seconds. */
  timeoutSeconds?: number;
}

/** The client's request iterator is not in autocannon's types; the request just answered is its current one. */
interface ClientInternals {
  requestIterator?: { currentRequest?: { kind?: RequestKind } };
}

function rotated<T>(items: T[], by: number): T[] {
  const shift = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

export async function runLoad(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const latenciesByKind: Partial<Record<RequestKind, number[]>> = {};
  const statuses: Record<string, number> = {};
  let ok = 0;
  let errors = 0;
  let clients = 0;
  // With `amount`, autocannon ends the run at its next one-second sample tick after the last answer, and its
  // duration says so: up to a second too long. The run's time is measured here
  // instead, from the start to the last answer.
  let startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const spacing = Math.max(1, Math.floor(target.requests.length / options.connections));

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        connections: options.connections,
        ...(options.amount ? { amount: options.amount } : { duration: options.durationSeconds }),
        timeout: options.timeoutSeconds ?? 30,
        requests: target.requests,
        setupClient: (client) => client.setRequests(rotated(target.requests, spacing * clients++)),
      },
      (error, finished) =>
        error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(finished),
    );
    instance.on('start', () => (startedAt = lastAnswerAt = performance.now()));
    instance.on('response', (client, statusCode, _bytes, responseTime) => {
      lastAnswerAt = performance.now();
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode < 200 || statusCode >= 300) {
        errors++;
        return;
      }
      ok++;
      latencies.push(responseTime);
      const kind = (client as unknown as ClientInternals).requestIterator?.currentRequest?.kind;
      if (kind) (latenciesByKind[kind] ??= []).push(responseTime);
    });
    instance.on('reqError', () => {
      lastAnswerAt = performance.now();
      errors++;
      statuses.error = (statuses.error ?? 0) + 1;
    });
  });
  const seconds = options.amount
    ? (lastAnswerAt - startedAt) / 1000
    : result.duration || options.durationSeconds;
  latencies.sort((a, b) => a - b);
  for (const values of Object.values(latenciesByKind)) values.sort((a, b) => a - b);
  return {
    side: target.side,
    seconds,
    connections: options.connections,
    ok,
    errors,
    statuses,
    requestsPerSecond: ok / seconds,
    latencies,
    latenciesByKind,
  };
}

/** The q-quantile of sorted values (nearest rank); NaN when there are none. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(values: number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}
