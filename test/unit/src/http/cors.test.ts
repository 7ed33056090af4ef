import { expect } from 'chai';
import type { Context } from 'koa';
import { cors, corsHeaders } from '../../../../src/http/cors.js';
import { ALLOWED_METHODS, FORM_METHODS } from '../../../../src/http/problem.js';
import { raw, serveKoa, type KoaServer } from '../../../support/koaServer.js';

describe('http/cors: a public API any origin may read', () => {
  let server: KoaServer;
  let reached = 0;
  before(async () => {
    server = await serveKoa(cors(['RateLimit']), (ctx: Context) => {
      reached++;
      ctx.body = 'app';
    });
  });
  after(() => server.close());

  it('every answer lets any origin read it, and exposes the other layers’ headers with its own', async () => {
    const answer = await raw(server, '/api/v1/ppas', { headers: { Origin: 'https://example.org' } });
    expect(answer.body.toString()).to.equal('app');
    expect(answer.headers['access-control-allow-origin']).to.equal('*');
    const exposed = String(answer.headers['access-control-expose-headers']).split(', ');
    expect(exposed[0]).to.equal('RateLimit');
    expect(exposed).to.include.members(['Retry-After', 'Link', 'ETag', 'X-Request-Id']);
    expect(answer.headers).to.not.have.property('access-control-allow-methods');
  });

  it('answers a preflight itself: 204, the read methods, the requested headers, cached for a day', async () => {
    const before = reached;
    const answer = await raw(server, '/api/v1/ppas', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://example.org',
        'Access-Control-Request-Headers': 'x-request-id, If-None-Match',
      },
    });
    expect(answer.status).to.equal(204);
    expect(answer.headers.allow).to.equal(ALLOWED_METHODS);
    expect(answer.headers['access-control-allow-methods']).to.equal(ALLOWED_METHODS);
    expect(answer.headers['access-control-allow-headers']).to.equal('x-request-id, If-None-Match');
    expect(answer.headers['access-control-max-age']).to.equal('86400');
    expect(answer.headers['access-control-allow-origin']).to.equal('*');
    expect(reached, 'the later layers never see a preflight').to.equal(before);
  });

  it('names the methods a path takes in a preflight, POST included where the app says so', async () => {
    const withForms = await serveKoa(
      cors([], (path) => (path === '/api/v1/reconcile/ppas' ? FORM_METHODS : ALLOWED_METHODS)),
      (ctx: Context) => {
        ctx.body = 'app';
      },
    );
    try {
      const preflight = (path: string) => raw(withForms, path, { method: 'OPTIONS' });
      const form = await preflight('/api/v1/reconcile/ppas');
      expect([form.headers.allow, form.headers['access-control-allow-methods']]).to.deep.equal([
        FORM_METHODS,
        FORM_METHODS,
      ]);
      expect((await preflight('/api/v1/ppas')).headers['access-control-allow-methods']).to.equal(
        ALLOWED_METHODS,
      );
    } finally {
      await withForms.close();
    }
  });

  it('does not echo requested headers that are not a list of header names', async () => {
    for (const requested of ['a b', 'x-a;x-b', 'x-a,', '']) {
      const answer = await raw(server, '/', {
        method: 'OPTIONS',
        headers: { 'Access-Control-Request-Headers': requested },
      });
      expect(answer.status, requested).to.equal(204);
      expect(answer.headers, requested).to.not.have.property('access-control-allow-headers');
    }
  });

  it('corsHeaders alone: the same two headers, for answers made outside Koa (the front door)', () => {
    expect(corsHeaders()).to.deep.equal({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'Retry-After, Link, ETag, X-Request-Id, Last-Modified, Changes-Since',
    });
  });
});
