import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import { onlyReadMethods } from '../../../../src/http/methods.js';
import { ALLOWED_METHODS, FORM_METHODS } from '../../../../src/http/problem.js';
import { listen, problems, raw, type KoaServer } from '../../../support/koaServer.js';

describe('http/methods: a read-only API, POST only where a route takes a form', () => {
  let server: KoaServer;
  let reached: string[] = [];
  before(async () => {
    const router = new Router();
    router.get('/api/v1/ppas/:slug', (ctx) => {
      ctx.body = { slug: ctx.params.slug };
    });
    router.get('/api/v1/reconcile/ppas', (ctx) => {
      ctx.body = { method: ctx.method };
    });
    router.post('/api/v1/reconcile/ppas', (ctx) => {
      ctx.body = { method: ctx.method };
    });
    const app = new Koa()
      .use(problems())
      .use(onlyReadMethods([router]))
      .use(async (ctx, next) => {
        reached.push(`${ctx.method} ${ctx.path}`);
        await next();
      })
      .use(router.routes());
    server = await listen(app);
  });
  after(() => server.close());
  beforeEach(() => (reached = []));

  it('answers any other method on a path a route serves with 405, Allow naming the read methods', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await raw(server, '/api/v1/ppas/kafue', { method });
      expect(answer.status, method).to.equal(405);
      expect(answer.headers.allow, method).to.equal(ALLOWED_METHODS);
      expect(String(JSON.parse(answer.body.toString()).detail)).to.match(
        new RegExp(`^${method} is not supported`),
      );
    }
    expect(reached, 'refused before the routes').to.deep.equal([]);
  });

  it('lets the read methods through', async () => {
    const answer = await raw(server, '/api/v1/ppas/kafue');
    expect([answer.status, JSON.parse(answer.body.toString())]).to.deep.equal([200, { slug: 'kafue' }]);
    expect((await raw(server, '/api/v1/ppas/kafue', { method: 'HEAD' })).status).to.equal(200);
    expect(reached).to.deep.equal(['GET /api/v1/ppas/kafue', 'HEAD /api/v1/ppas/kafue']);
  });

  it('lets POST through where a route takes it, and names POST in Allow there for any other method', async () => {
    const post = await raw(server, '/api/v1/reconcile/ppas', { method: 'POST' });
    expect([post.status, JSON.parse(post.body.toString())]).to.deep.equal([200, { method: 'POST' }]);
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const answer = await raw(server, '/api/v1/reconcile/ppas', { method });
      expect([answer.status, answer.headers.allow], method).to.deep.equal([405, FORM_METHODS]);
    }
    expect(FORM_METHODS).to.equal('GET, HEAD, OPTIONS, POST');
    expect(reached).to.deep.equal(['POST /api/v1/reconcile/ppas']);
  });

  it('leaves a path no route serves to the 404, whatever the method', async () => {
    const answer = await raw(server, '/api/v1/nothing', { method: 'POST' });
    expect(answer.status).to.equal(404);
    expect(reached).to.deep.equal(['POST /api/v1/nothing']);
  });
});
