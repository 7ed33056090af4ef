import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import { onlyReadMethods } from '../../../../src/http/methods.js';
import { ALLOWED_METHODS } from '../../../../src/http/problem.js';
import { listen, problems, raw, type KoaServer } from '../../../support/koaServer.js';

describe('http/methods: a read-only API', () => {
  let server: KoaServer;
  let reached: string[] = [];
  before(async () => {
    const router = new Router();
    router.get('/api/v1/ppas/:slug', (ctx) => {
      ctx.body = { slug: ctx.params.slug };
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

  it('leaves a path no route serves to the 404, whatever the method', async () => {
    const answer = await raw(server, '/api/v1/nothing', { method: 'POST' });
    expect(answer.status).to.equal(404);
    expect(reached).to.deep.equal(['POST /api/v1/nothing']);
  });
});
