// A TCP proxy between the app and a real server, to make that server disappear, hang or come back on cue
// (on the same port, so the app under test keeps its configuration and must recover by itself).
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
  /** Stops listening and cuts every open connection: the target looks down. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  open(): Promise<void>;
}

export async function startTcpProxy(
  target: { host: string; port: number },
  mode: ProxyMode = 'forward',
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const handle = (client: Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (proxy.mode === 'blackhole') {
      client.resume();
      return;
    }
    const upstream = createConnection(target);
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    // Same delay for every chunk, so timers keep their order.
    client.on('data', (chunk: Buffer) => {
      if (proxy.delayMs > 0) setTimeout(() => upstream.write(chunk), proxy.delayMs);
      else upstream.write(chunk);
    });
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
