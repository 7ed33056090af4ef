import { expect } from 'chai';
import type { Context } from 'koa';
import { SECURITY_HEADERS, securityHeaders } from '../../../../src/http/securityHeaders.js';
import { problems, raw, serveKoa } from '../../../support/koaServer.js';
import { NotFoundError } from '../../../../src/http/problem.js';

describe('http/securityHeaders: hardening headers on every answer', () => {
  it('are on an answer, on a path nothing serves, and on an error answer', async () => {
    const server = await serveKoa(securityHeaders(), problems(), (ctx: Context) => {
      if (ctx.path === '/ok') ctx.body = { ok: true };
      if (ctx.path === '/error') throw new NotFoundError();
    });
    try {
      for (const [path, status] of [
        ['/ok', 200],
        ['/nothing', 404],
        ['/error', 404],
      ] as const) {
        const answer = await raw(server, path);
        expect(answer.status, path).to.equal(status);
        expect(answer.headers['x-content-type-options'], path).to.equal('nosniff');
        expect(answer.headers['content-security-policy'], path).to.equal(
          "default-src 'none'; frame-ancestors 'none'",
        );
        expect(answer.headers['referrer-policy'], path).to.equal('no-referrer');
      }
    } finally {
      await server.close();
    }
  });

  it('forbid rendering, framing and loading anything', () => {
    expect(SECURITY_HEADERS['Content-Security-Policy']).to.match(/default-src 'none'/);
    expect(SECURITY_HEADERS['Content-Security-Policy']).to.match(/frame-ancestors 'none'/);
  });
});
