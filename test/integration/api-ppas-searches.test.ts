// Every endpoint makes exactly one Elasticsearch search per answer, and a refused request none.
import { expect } from 'chai';
import Koa from 'koa';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { evaluateFlags, peerLookup } from '../../indexContract/flags.js';
import { ProblemError } from '../../src/http/problem.js';
import { OPERATIONS } from '../../src/operations/catalog.js';
import { operationsRouter } from '../../src/operations/router.js';
import type { SearchGateway } from '../../src/gateway/gateway.js';
import { useSampleApp } from '../support/sampleApp.js';
import { listed } from '../support/sampleOracle.js';
import { operationDeps } from '../support/operationDeps.js';

describe('/api/v1/ppas endpoints: one search each', function () {
  this.timeout(120_000);
  const { app } = useSampleApp('api-searches');

  describe('round trips', () => {
    it('every endpoint makes exactly one round trip (a search, one _msearch or a get); a 400 makes none', async () => {
      const requests: unknown[] = [];
      const counting: SearchGateway = {
        ...app().search,
        search: (request) => {
          requests.push(request);
          return app().search.search(request);
        },
        msearch: (batch) => {
          requests.push(batch);
          return app().search.msearch(batch);
        },
        getDocument: (lookup) => {
          requests.push(lookup);
          return app().search.getDocument(lookup);
        },
      };
      const koa = new Koa();
      koa.use(async (ctx, next) => {
        try {
          await next();
        } catch (error) {
          if (!(error instanceof ProblemError)) throw error;
          ctx.status = error.status;
          ctx.body = { status: error.status };
        }
      });
      // The app's live state: a flagged PPA's detail reads its generation's fences there (once a generation, a
      // lookup of the live state, not a search of the answer).
      koa.use(
        operationsRouter(
          OPERATIONS,
          operationDeps({ search: counting, liveState: app().liveState }),
        ).routes(),
      );
      const server = koa.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const slug = listed[0]?.slug ?? '';
        // A PPA with a flag that needs no fences (so its detail derives evidence).
        const flagged = listed.find(
          (record) => evaluateFlags(record, peerLookup(null)).flags.length > 0,
        )!.slug;
        for (const [path, status, searches] of [
          ['/api/v1/ppas?q=solar&technology=solar_pv', 200, 1],
          ['/api/v1/ppas?q=solar&facets=technology,country', 200, 1],
          ['/api/v1/ppas?technology=solar_pv&facets=technology,tariff,country,year,risk_features', 200, 1],
          ['/api/v1/ppas/statistics?technology=nuclear_fusion', 200, 1],
          [`/api/v1/ppas/${slug}`, 200, 1],
          [`/api/v1/ppas/${flagged}`, 200, 1],
          [`/api/v1/ppas?sort=flags_desc&fields=flags,flag_evidence`, 200, 1],
          ['/api/v1/ppas/no-such-ppa', 404, 1],
          ['/api/v1/ppas/Not_A_Slug', 404, 0],
          ['/api/v1/ppas?page=0', 400, 0],
        ] as const) {
          requests.length = 0;
          const response = await fetch(`${base}${path}`);
          expect(response.status, path).to.equal(status);
          expect(requests, path).to.have.length(searches);
        }
      } finally {
        server.close();
      }
    });
  });
});
