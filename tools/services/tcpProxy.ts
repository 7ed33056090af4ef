// A TCP proxy between the app and a real server, to make that server disappear, hang, slow down or come back on
// cue (on the same port, so the app under test keeps its configuration and must recover by itself). Towards an
// Elasticsearch it also counts the searches (_search, _msearch) it passes and how many were in flight at once, and
// can slow down those alone: a cluster whose search pool is full still answers a ping at once.
import { once } from 'node:events';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type ProxyMode =
  /** Pass bytes both ways (each chunk towards the target `delayMs` late, when set). */
  | 'forward'
  /** Accept connections, read everything, never answer. */
  | 'blackhole';

export interface TcpProxy {
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  mode: ProxyMode;
  /** Delay of every chunk sent towards the target (forward mode): a slow server, request after request. */
  delayMs: number;
  /** Delay of the searches alone (their requests, towards the target), on top of delayMs. */
  searchDelayMs: number;
  /** Searches passed towards the target so far (in blackhole mode: searches received, never answered). */
  readonly searchesSent: number;
  /** Searches sent whose answer has not begun to come back. */
  readonly searchesInFlight: number;
  /** The most searches in flight at once so far. */
  readonly maxSearchesInFlight: number;
  /** Sets the three counts back to 0. */
  resetCounts(): void;
  /** Stops listening and cuts every open connection: the target looks down. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  open(): Promise<void>;
}

/** The request line of a search: _search or _msearch, on any index. */
const SEARCH_REQUEST = /^(?:GET|POST) \/[^ ]*_m?search[/? ]/;
const settled = Promise.resolve();
const sleep = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : settled);

export async function startTcpProxy(
  target: { host: string; port: number },
  mode: ProxyMode = 'forward',
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let searchesSent = 0;
  let searchesInFlight = 0;
  let maxSearchesInFlight = 0;

  const handle = (client: Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (proxy.mode === 'blackhole') {
      // Read everything (a search is counted as sent, never answered).
      client.on('data', (chunk: Buffer) => {
        if (SEARCH_REQUEST.test(chunk.toString('latin1', 0, 256))) searchesSent++;
      });
      return;
    }
    const upstream = createConnection(target);
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    // One request at a time on a connection (the client does not pipeline): is a search awaiting its answer?
    let searchAwaitingAnswer = false;
    const answered = () => {
      if (!searchAwaitingAnswer) return;
      searchAwaitingAnswer = false;
      searchesInFlight--;
    };
    client.on('close', () => {
      answered();
      upstream.destroy();
    });
    // Chunks go on in order, each no sooner than its own delay after it came (a search's first chunk may wait
    // longer than those before it; those after it wait for it).
    let sent = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      const search = SEARCH_REQUEST.test(chunk.toString('latin1', 0, 256));
      if (search) {
        searchesSent++;
        searchAwaitingAnswer = true;
        maxSearchesInFlight = Math.max(maxSearchesInFlight, ++searchesInFlight);
      }
      const delay = proxy.delayMs + (search ? proxy.searchDelayMs : 0);
      if (delay === 0 && sent === settled) {
        upstream.write(chunk);
        return;
      }
      const due = performance.now() + delay;
      const mine = sent
        .then(() => sleep(due - performance.now()))
        .then(() => {
          if (!upstream.destroyed) upstream.write(chunk);
        });
      sent = mine;
      void mine.then(() => {
        if (sent === mine) sent = settled;
      });
    });
    upstream.on('data', answered);
    upstream.pipe(client);
  };

  const listen = async () => {
    server = createServer(handle);
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  };

  const proxy: TcpProxy = {
    get port() {
      return port;
    },
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    mode,
    delayMs: 0,
    searchDelayMs: 0,
    get searchesSent() {
      return searchesSent;
    },
    get searchesInFlight() {
      return searchesInFlight;
    },
    get maxSearchesInFlight() {
      return maxSearchesInFlight;
    },
    resetCounts() {
      searchesSent = 0;
      maxSearchesInFlight = searchesInFlight;
    },
    async close() {
      const current = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    async open() {
      if (!server) await listen();
    },
  };
  await listen();
  return proxy;
}

/** host and port of the first node of an Elasticsearch URL list. */
export function targetOf(esUrl: string): { host: string; port: number } {
  const url = new URL(esUrl.split(',')[0] ?? esUrl);
  return { host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
}
