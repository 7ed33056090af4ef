// The metrics endpoint on its own port (METRICS_PORT): GET /metrics in the Prometheus text format, nothing else.
// Apart from the API's port, so the public proxy never forwards it and a scrape is never rate limited.
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

export function createMetricsServer(registry: Registry): Server {
  return createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('only GET /metrics here\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('metrics failed\n'),
    );
  });
}
