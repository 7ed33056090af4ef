// An Elasticsearch client answered in-process: a Client whose Connection class is a fake that answers each
// request as the test's script says (a canned answer, a refused connection, a hang until the attempt's timeout or
// its abort), and records what it was asked. No network, no server: for unit tests of code that talks to the
// client (the search gateway; the indexer, through fakeElasticsearch.ts's model of a cluster), through the client's
// own transport (its retries, errors, abort signals).
import {
  BaseConnection,
  Client,
  ClusterConnectionPool,
  errors,
  type ConnectionRequestOptions,
  type ConnectionRequestOptionsAsStream,
  type ConnectionRequestParams,
  type ConnectionRequestResponse,
  type ConnectionRequestResponseAsStream,
} from '@elastic/elasticsearch';

/** One request as the fake saw it. */
export interface FakeCall {
  /** The node's host:port. */
  node: string;
  method: string;
  path: string;
  /** The query string as sent ('' when none), e.g. `refresh=true&op_type=create`. */
  querystring: string;
  /** The body as sent: JSON parsed, NDJSON as its lines parsed, absent when none. */
  body: unknown;
  /** The body's text as sent (a Buffer's as UTF-8), absent when none. */
  text: string | undefined;
  /** The attempt's timeout (ms) the client gave the connection. */
  timeout: number | undefined;
  signal: AbortSignal | undefined;
}

/**
 * What the fake does with a request: answer with a status and a JSON body (after `delayMs`, unless the attempt
 * times out or aborts first), refuse the connection, or hang until the attempt times out or aborts.
 */
export type FakeAnswer = { status?: number; body?: unknown; delayMs?: number } | 'refused' | 'hang';

export interface FakeCluster {
  client: Client;
  /** Every request made, in order (pings included). */
  calls: FakeCall[];
  /** The requests other than pings (HEAD /). */
  searches(): FakeCall[];
}

const HEADERS = { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' };

/** A client of `nodes` (host:port) whose every request `answer` answers; `answer` gets the call and its index. */
export function fakeCluster(
  answer: (call: FakeCall, index: number) => FakeAnswer,
  nodes: readonly string[] = ['node-a:9200'],
): FakeCluster {
  const calls: FakeCall[] = [];
  class FakeConnection extends BaseConnection {
    override request(
      params: ConnectionRequestParams,
      options: ConnectionRequestOptions,
    ): Promise<ConnectionRequestResponse>;
    override request(
      params: ConnectionRequestParams,
      options: ConnectionRequestOptionsAsStream,
    ): Promise<ConnectionRequestResponseAsStream>;
    // Answered as JSON text always: the gateway never asks for a stream.
    override async request(
      params: ConnectionRequestParams,
      options: ConnectionRequestOptions,
    ): Promise<ConnectionRequestResponse | ConnectionRequestResponseAsStream> {
      const call: FakeCall = {
        node: this.url.host,
        method: params.method,
        path: params.path,
        querystring: params.querystring ?? '',
        body: parsedBody(params.body),
        text: bodyText(params.body),
        timeout: options.timeout,
        signal: options.signal,
      };
      calls.push(call);
      const reply = answer(call, calls.length - 1);
      if (reply === 'refused') throw new errors.ConnectionError('connect ECONNREFUSED');
      await waited(reply === 'hang' ? Infinity : (reply.delayMs ?? 0), options);
      if (reply === 'hang') throw new Error('unreachable');
      const status = reply.status ?? 200;
      return { statusCode: status, headers: HEADERS, body: JSON.stringify(reply.body ?? {}) };
    }
  }
  const client = new Client({
    nodes: nodes.map((node) => `http://${node}`),
    Connection: FakeConnection,
    ConnectionPool: ClusterConnectionPool,
  });
  return {
    client,
    calls,
    searches: () => calls.filter((call) => call.method !== 'HEAD'),
  };
}

/** Waits `ms`; throws as a connection does when the attempt's timeout comes first, or its signal aborts. */
function waited(ms: number, options: ConnectionRequestOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const timers: NodeJS.Timeout[] = [];
    const end = (settle: () => void) => {
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => end(() => reject(new errors.RequestAbortedError('Request aborted')));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(ms)) timers.push(setTimeout(() => end(resolve), ms));
    if (options.timeout !== undefined) {
      timers.push(
        setTimeout(() => end(() => reject(new errors.TimeoutError('Request timed out'))), options.timeout),
      );
    }
  });
}

/** A string's or a Buffer's text (a bulk load sends a ready Buffer); undefined for none or a stream. */
export function bodyText(body: ConnectionRequestParams['body']): string | undefined {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  return typeof body === 'string' && body !== '' ? body : undefined;
}

/** The body parsed: JSON, or NDJSON as its lines parsed; undefined when none. */
export function parsedBody(body: ConnectionRequestParams['body']): unknown {
  const text = bodyText(body);
  if (text === undefined || text === '') return undefined;
  const lines = text.split('\n').filter((line) => line !== '');
  return lines.length > 1 ? lines.map((line) => JSON.parse(line) as unknown) : (JSON.parse(text) as unknown);
}
