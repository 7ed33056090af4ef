import { expect } from 'chai';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { markOverloaded } from '../../../../src/http/refusalLog.js';
import { requestId } from '../../../../src/http/requestId.js';
import { requestLog } from '../../../../src/http/requestLog.js';
import { raw, serveKoa, type KoaServer } from '../../../support/koaServer.js';

type Line = { level: 'info' | 'warn'; fields: Record<string, unknown>; message: string };

describe('http/requestLog: one line a request', () => {
  const lines: Line[] = [];
  const logger = {
    info: (fields: Record<string, unknown>, message: string) =>
      lines.push({ level: 'info', fields, message }),
    warn: (fields: Record<string, unknown>, message: string) =>
      lines.push({ level: 'warn', fields, message }),
  } as unknown as Logger;
  let server: KoaServer;
  before(async () => {
    server = await serveKoa(requestId(), requestLog(logger), (ctx: Context) => {
      if (ctx.path === '/status') ctx.status = Number(ctx.query.status);
      else if (ctx.path === '/refused') {
        markOverloaded(ctx);
        ctx.status = 503;
      } else if (ctx.path === '/thrown') throw new Error('bug');
      else ctx.body = 'ok';
    });
  });
  after(() => server.close());
  beforeEach(() => (lines.length = 0));

  it('logs the request id, method, path (no query), status, duration and client address', async () => {
    await raw(server, '/api/v1/ppas?q=solar', { headers: { 'X-Request-Id': 'req-1' } });
    expect(lines).to.have.length(1);
    const [line] = lines;
    expect(line).to.deep.include({ level: 'info', message: 'request' });
    expect(line?.fields).to.deep.include({
      request_id: 'req-1',
      method: 'GET',
      path: '/api/v1/ppas',
      status: 200,
      ip: '127.0.0.1',
    });
    expect(line?.fields.ms).to.be.a('number').and.at.least(0);
    expect(line?.fields, 'tracing off: no trace id').to.not.have.property('trace_id');
  });

  it('logs a 5xx at warn, anything below at info', async () => {
    for (const status of [500, 503, 499, 404]) await raw(server, `/status?status=${status}`);
    expect(lines.map((line) => [line.level, line.fields.status])).to.deep.equal([
      ['warn', 500],
      ['warn', 503],
      ['info', 499],
      ['info', 404],
    ]);
  });

  it('logs nothing for an overload refusal (counted by the refusal log instead)', async () => {
    expect((await raw(server, '/refused')).status).to.equal(503);
    expect(lines).to.deep.equal([]);
  });

  it('still logs a request whose handling threw', async () => {
    await raw(server, '/thrown');
    expect(lines.map((line) => line.fields.path)).to.deep.equal(['/thrown']);
  });
});
