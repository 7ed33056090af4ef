// The operation wrapper: the query is parsed before the handler runs (a bad one is a 400 and the handler never
// runs), the handler gets it typed, and its answers are cached under its operationId. Driven through Koa
// in-process, with the app's own problem middleware and answer function; no search is made.
import { expect } from 'chai';
import type { Router } from '@koa/router';
import Koa from 'koa';
import { operation } from '../../../../src/operations/operation.js';
import { operationsRouter } from '../../../../src/operations/router.js';
import { suggestQuery, type SuggestQuery } from '../../../../src/params/suggest.js';
import type { SearchGateway } from '../../../../src/gateway/gateway.js';
import type { AnswerKey } from '../../../../src/wire/answers.js';
import { listen, problems } from '../../../support/koaServer.js';
import { operationDeps } from '../../../support/operationDeps.js';

async function serve(router: Router, path: string): Promise<{ status: number; body: unknown }> {
  const app = new Koa();
  app.use(problems());
  app.use(router.routes());
  const server = await listen(app);
  try {
    const response = await fetch(`${server.base}${path}`);
    return { status: response.status, body: await response.json() };
  } finally {
    await server.close();
  }
}

describe('api operations: the operation wrapper', () => {
  const seen: SuggestQuery[] = [];
  const keys: AnswerKey[] = [];
  const echo = operation({
    path: '/echo',
    query: suggestQuery,
    notHere: 'it echoes',
    doc: { operationId: 'echoQuery', responses: {} },
    handler:
      () =>
      async ({ query, answer }) => {
        seen.push(query);
        await answer(`${query.q} ${query.limit}`, () => ({ body: { q: query.q, limit: query.limit } }));
      },
  });
  const other = operation({
    path: '/other',
    query: { ...suggestQuery, names: ['page'] } as typeof suggestQuery,
    doc: { operationId: 'other', responses: {} },
    handler: () => () => undefined,
  });
  const deps = operationDeps({ search: {} as SearchGateway });
  const answer = deps.answer;
  deps.answer = (ctx, key, compute) => {
    keys.push(key);
    return answer(ctx, key, compute);
  };
  const app = operationsRouter([echo, other], deps);

  it('hands the handler its parsed query, defaults filled in, and keys the answer by operationId', async () => {
    const { status, body } = await serve(app, '/echo?q=solar');
    expect([status, body]).to.deep.equal([200, { q: 'solar', limit: 10 }]);
    expect(seen.at(-1)).to.deep.equal({ q: 'solar', limit: 10 });
    expect(keys.at(-1)).to.deep.equal({ route: 'echoQuery', normalized: 'solar 10' });
  });

  it('refuses a bad query with a 400 naming every problem, and the handler never runs', async () => {
    const before = seen.length;
    const { status, body } = await serve(app, '/echo?limit=0&page=2&zz=1');
    expect(status).to.equal(400);
    expect((body as { invalid_params: unknown[] }).invalid_params).to.deep.equal([
      { name: 'q', reason: 'is required' },
      { name: 'page', reason: 'is not a parameter of GET /echo (it echoes)' },
      { name: 'zz', reason: 'unknown parameter' },
      { name: 'limit', reason: 'must be between 1 and 20' },
    ]);
    expect(seen.length).to.equal(before);
  });
});
