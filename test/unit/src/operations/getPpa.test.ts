// GET /api/v1/ppas/{slug}: a malformed slug is answered as an unknown one without a lookup, any query parameter is
// a 400, and a well-formed slug is looked up by id. Driven through Koa in-process with a recording gateway.
import { expect } from 'chai';
import type { Router } from '@koa/router';
import Koa from 'koa';
import { getPpa } from '../../../../src/operations/getPpa.js';
import { OPERATIONS } from '../../../../src/operations/catalog.js';
import { operationsRouter } from '../../../../src/operations/router.js';
import type { DocumentLookup, SearchGateway } from '../../../../src/gateway/gateway.js';
import { listen, problems } from '../../../support/koaServer.js';
import { operationDeps } from '../../../support/operationDeps.js';

describe('api operations: getPpa', () => {
  const lookups: DocumentLookup[] = [];
  const search = {
    getDocument: async (lookup: DocumentLookup) => {
      lookups.push(lookup);
      return null;
    },
  } as unknown as SearchGateway;
  const alone = operationsRouter([getPpa], operationDeps({ search }));
  // The reasons name the other operations' parameters as the app's router does.
  const full = operationsRouter(OPERATIONS, operationDeps({ search }));

  async function get(
    router: Router,
    path: string,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const served = new Koa();
    served.use(problems());
    served.use(router.routes());
    const server = await listen(served);
    try {
      const response = await fetch(`${server.base}${path}`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } finally {
      await server.close();
    }
  }

  it('answers a malformed slug as an unknown one, without a lookup', async () => {
    for (const slug of ['Kahone-Solar', 'a--b', 'x'.repeat(121), '-a']) {
      const { status, body } = await get(alone, `/api/v1/ppas/${encodeURIComponent(slug)}`);
      expect([status, body.title], slug).to.deep.equal([404, 'Not Found']);
    }
    expect(lookups).to.deep.equal([]);
  });

  it('looks a well-formed slug up by id; none is a 404 alike', async () => {
    const { status, body } = await get(alone, '/api/v1/ppas/kahone-solar-2');
    expect([status, body.detail]).to.deep.equal([404, 'No published PPA has this slug.']);
    expect(lookups).to.have.length(1);
    expect(JSON.stringify(lookups[0])).to.include('kahone-solar-2');
  });

  it('takes no query parameter: a 400 naming each, another operation’s said to be one', async () => {
    const before = lookups.length;
    const { status, body } = await get(full, '/api/v1/ppas/kahone-solar-2?q=solar&x=');
    expect(status).to.equal(400);
    expect(body.invalid_params).to.deep.equal([
      { name: 'q', reason: 'is not a parameter of GET /api/v1/ppas/{slug} (it takes none)' },
      { name: 'x', reason: 'unknown parameter' },
    ]);
    expect(lookups.length).to.equal(before);
  });
});
