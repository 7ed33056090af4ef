// GET /health/live: 200 while the process runs, never cached, asking nothing of Elasticsearch or the live state,
// and without reading its query (load balancers' probes are not API requests). Driven through Koa in-process.
import { expect } from 'chai';
import { OPERATIONS } from '../../../../src/operations/catalog.js';
import { liveness } from '../../../../src/operations/liveness.js';
import { jsonOf } from '../../../support/koaServer.js';
import { liveStateOf } from '../../../support/liveState.js';
import { operationServers } from '../../../support/servedOperations.js';

describe('operations/liveness: GET /health/live', () => {
  const serve = operationServers([liveness]);
  const serveAll = operationServers(OPERATIONS);

  it('answers ok, never cached, with no search and no lookup', async () => {
    let lookups = 0;
    const counted = () => {
      lookups++;
      return Promise.reject(new Error('asked'));
    };
    const served = await serve(
      {},
      { liveState: liveStateOf({ servedState: counted, ready: counted, indexContract: counted }) },
    );
    const answer = await served.get('/health/live');
    expect(answer.status).to.equal(200);
    expect(jsonOf(answer)).to.deep.equal({ status: 'ok' });
    expect(answer.headers['cache-control']).to.equal('no-store');
    expect(answer.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect([served.calls.length, lookups]).to.deep.equal([0, 0]);
  });

  it('does not read its query: what would be a 400 on the API is still ok', async () => {
    const served = await serveAll();
    const answer = await served.get('/health/live?page=0&zz=1&q=');
    expect([answer.status, jsonOf(answer)]).to.deep.equal([200, { status: 'ok' }]);
  });

  it('HEAD: the same status and headers, no body', async () => {
    const served = await serve();
    const head = await served.get('/health/live', { method: 'HEAD' });
    expect([head.status, head.headers['cache-control'], head.body.length]).to.deep.equal([
      200,
      'no-store',
      0,
    ]);
  });
});
