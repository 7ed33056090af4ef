import { expect } from 'chai';
import type { Context } from 'koa';
import { request } from 'node:http';
import { once } from 'node:events';
import { abandonedSearchesCancelled } from '../../../../src/http/abandon.js';
import { currentRequestSignal } from '../../../../src/http/requestSignal.js';
import { raw, serveKoa, type KoaServer } from '../../../support/koaServer.js';

describe('http/abandon: a client gone cancels its searches', () => {
  let server: KoaServer;
  /** The request signal each request's later layers saw, by path. */
  const signals = new Map<string, AbortSignal | undefined>();
  let arrived: () => void = () => undefined;
  before(async () => {
    server = await serveKoa(abandonedSearchesCancelled(), async (ctx: Context) => {
      const signal = currentRequestSignal();
      signals.set(ctx.path, signal);
      if (ctx.path === '/slow') {
        arrived();
        // As a search would: it waits for its answer until the request's signal aborts it.
        await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
      }
      ctx.body = 'answer';
    });
  });
  after(() => server.close());

  it('aborts the request’s signal when the client goes away before the answer', async () => {
    const here = new Promise<void>((resolve) => (arrived = resolve));
    const sent = request({ host: '127.0.0.1', port: server.port, path: '/slow' });
    sent.on('error', () => undefined);
    sent.end();
    await here;
    const signal = signals.get('/slow');
    expect(signal?.aborted).to.equal(false);
    sent.destroy();
    await once(signal!, 'abort');
    expect(signal?.aborted).to.equal(true);
  });

  it('leaves the signal alone when the answer was sent in full', async () => {
    const answer = await raw(server, '/fast');
    expect(answer.body.toString()).to.equal('answer');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const signal = signals.get('/fast');
    expect(signal).to.be.instanceOf(AbortSignal);
    expect(signal?.aborted).to.equal(false);
  });

  it('gives each request a signal of its own, and none outside a request', async () => {
    await Promise.all([raw(server, '/one'), raw(server, '/two')]);
    expect(signals.get('/one')).to.be.instanceOf(AbortSignal);
    expect(signals.get('/one')).to.not.equal(signals.get('/two'));
    expect(currentRequestSignal()).to.equal(undefined);
  });
});
