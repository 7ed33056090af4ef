// GET /api/v1/ppas/export: one export per client at a time (429 beyond), the first batch asked before the first
// byte (a failure there is an ordinary problem answer), later batches walked with search_after outside admission,
// the file's headers (type, Content-Disposition, Cache-Control, Changes-Since), and a failure mid-stream cutting
// the connection. Driven through Koa in-process over a recording gateway; the CSV cells are exportBody's.
import { expect } from 'chai';
import Koa from 'koa';
import { request } from 'node:http';
import { pino } from 'pino';
import { LIST_SOURCE_FIELDS, type ListSource } from '../../../../indexContract/sourceFields.js';
import { ExportSlots } from '../../../../src/export/exportSlots.js';
import { OPERATIONS } from '../../../../src/operations/catalog.js';
import { exportPpas } from '../../../../src/operations/exportPpas.js';
import { operationsRouter } from '../../../../src/operations/router.js';
import { EXPORT_BATCH_SIZE } from '../../../../src/queries/exportSearch.js';
import { SearchUnavailableError } from '../../../../src/gateway/searchErrors.js';
import { jsonOf, listen, problems } from '../../../support/koaServer.js';
import { liveStateOf } from '../../../support/liveState.js';
import { operationDeps } from '../../../support/operationDeps.js';
import {
  filterClauses,
  recordingGateway,
  searchResponse,
  type CannedHit,
} from '../../../support/recordingGateway.js';
import { servedStateOf } from '../../../support/servedState.js';
import { headThenSearch, operationServers } from '../../../support/servedOperations.js';
import { listSource } from '../../../support/sources.js';
import { within } from '../../../support/within.js';

/** A full batch: EXPORT_BATCH_SIZE records, each with the sort values the walk resumes after. */
const fullBatch = (from: number): CannedHit<ListSource>[] =>
  Array.from({ length: EXPORT_BATCH_SIZE }, (_, index) => {
    const slug = `ppa-${from + index}`;
    return { source: { ...listSource, slug }, sort: [from + index, slug] };
  });

const today = () => new Date().toISOString().slice(0, 10);

/** A promise and what settles it, for a batch the test holds back. */
function heldBack<T>() {
  let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
  const promise = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  return { promise, ...settle };
}

describe('operations/exportPpas: GET /api/v1/ppas/export', () => {
  const serve = operationServers([exportPpas]);
  const serveAll = operationServers(OPERATIONS);

  it('CSV by default: every list field then url, as an attachment of today, never cached', async () => {
    const served = await serve({ search: () => searchResponse([listSource]) });
    const before = today();
    const answer = await served.get('/api/v1/ppas/export?technology=solar_pv&sort=name_asc');
    const dates = new Set([before, today()]);
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-type']).to.equal('text/csv; charset=utf-8; header=present');
    expect(answer.headers['cache-control']).to.equal('no-store');
    const disposition = String(answer.headers['content-disposition']);
    expect([...dates].map((date) => `attachment; filename="ppas-${date}.csv"`)).to.include(disposition);
    const lines = answer.body.toString('utf8').split('\r\n');
    expect(lines[0]).to.equal([...LIST_SOURCE_FIELDS, 'url'].join(','));
    expect(lines[1]).to.match(/^kahone-solar,Kahone Solar,.*,"Kaolack, Senegal",/);
    expect(lines[1]).to.match(new RegExp(`,${served.server.base}/api/v1/ppas/kahone-solar$`));
    expect(lines.slice(2)).to.deep.equal(['']);

    // One batch, through admission like any search (not unqueued), of the filters and the order asked.
    expect(served.calls).to.have.length(1);
    expect(served.calls[0]).to.not.have.property('options');
    const [first] = served.requests('search');
    expect([first?.size, first?.search_after]).to.deep.equal([EXPORT_BATCH_SIZE, undefined]);
    expect(first?.sort).to.deep.equal([{ name_sort: { order: 'asc' } }, { slug: { order: 'asc' } }]);
    expect(filterClauses(first)).to.deep.include({ terms: { technology: ['solar_pv'] } });
    expect(served.deps.exports.slots.running).to.equal(0);
  });

  it('NDJSON with fields: one item of those fields (slug and url always) per line', async () => {
    const served = await serve({ search: () => searchResponse([listSource]) });
    const answer = await served.get('/api/v1/ppas/export?format=ndjson&fields=capacity_mw');
    expect(answer.headers['content-type']).to.equal('application/x-ndjson');
    expect(String(answer.headers['content-disposition'])).to.match(/filename="ppas-[\d-]{10}\.ndjson"$/);
    const lines = answer.body.toString('utf8').split('\n');
    expect(lines.slice(1)).to.deep.equal(['']);
    expect(JSON.parse(lines[0] ?? '')).to.deep.equal({
      slug: 'kahone-solar',
      capacity_mw: 60,
      url: `${served.server.base}/api/v1/ppas/kahone-solar`,
    });
    expect(served.requests('search')[0]?._source).to.deep.equal(['slug', 'capacity_mw']);
  });

  it('walks on after a full batch from its last sort values, outside admission, until a short one', async () => {
    const served = await serve({
      search: (_request, _options, nth) => searchResponse(nth === 0 ? fullBatch(0) : [listSource]),
    });
    const answer = await served.get('/api/v1/ppas/export?format=ndjson');
    const slugs = answer.body
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { slug: string }).slug);
    expect(slugs).to.have.length(EXPORT_BATCH_SIZE + 1);
    expect([slugs[0], slugs.at(-2), slugs.at(-1)]).to.deep.equal(['ppa-0', 'ppa-199', 'kahone-solar']);
    expect(served.calls.map((call) => call.options)).to.deep.equal([undefined, { unqueued: true }]);
    expect(served.requests('search')[1]?.search_after).to.deep.equal([199, 'ppa-199']);
  });

  it('names where to follow the change log from in Changes-Since, read before the first batch', async () => {
    const logged = headThenSearch({ epoch: 'k3xq9a', seq: 77 }, () => searchResponse([listSource]));
    const served = await serve(logged.script, logged.given);
    const answer = await served.get('/api/v1/ppas/export');
    expect(answer.headers['changes-since']).to.equal('k3xq9a.77');
    expect(logged.order).to.deep.equal(['head', 'search']);
    const noLog = await serve(
      { search: () => searchResponse([listSource]) },
      { liveState: liveStateOf({ servedState: async () => servedStateOf(null) }) },
    );
    const without = await noLog.get('/api/v1/ppas/export');
    expect([without.status, without.headers['changes-since']]).to.deep.equal([200, undefined]);
  });

  it('runs one export per client at a time: another is 429 with Retry-After until the first has ended', async () => {
    const second = heldBack<unknown>();
    let asked!: () => void;
    const walking = new Promise<void>((resolve) => (asked = resolve));
    const served = await serve({
      search: (_request, _options, nth) => {
        if (nth === 0) return searchResponse(fullBatch(0));
        if (nth === 1) {
          asked();
          return second.promise;
        }
        return searchResponse([listSource]);
      },
    });
    const first = served.get('/api/v1/ppas/export');
    await walking;
    const refused = await served.get('/api/v1/ppas/export');
    expect([refused.status, refused.headers['retry-after']]).to.deep.equal([429, '10']);
    expect(jsonOf(refused).detail).to.equal('This client already runs an export: one at a time.');
    expect(served.deps.exports.slots.running).to.equal(1);
    second.resolve(searchResponse([listSource]));
    expect((await first).status).to.equal(200);
    expect(served.deps.exports.slots.running).to.equal(0);
    expect((await served.get('/api/v1/ppas/export')).status).to.equal(200);
  });

  it('answers a failure of the first batch as a 503 problem, and frees the slot', async () => {
    const served = await serve({
      search: (_request, _options, nth) => {
        if (nth === 0) throw new SearchUnavailableError('timed out');
        return searchResponse([listSource]);
      },
    });
    const failed = await served.get('/api/v1/ppas/export');
    expect([failed.status, failed.headers['retry-after']]).to.deep.equal([503, '5']);
    expect(failed.headers['content-type']).to.equal('application/problem+json');
    expect(failed.headers).to.not.have.property('content-disposition');
    expect(served.deps.exports.slots.running).to.equal(0);
    expect((await served.get('/api/v1/ppas/export')).status).to.equal(200);
  });

  it('cuts the connection when a later batch fails (never a short export that looks complete), logs it, frees the slot', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
    const served = await serve(
      {
        search: (_request, _options, nth) => {
          if (nth === 0) return searchResponse(fullBatch(0));
          throw new SearchUnavailableError('timed out');
        },
      },
      { exports: { slots: new ExportSlots(4), logger } },
    );
    let error: unknown;
    await served.get('/api/v1/ppas/export').catch((caught: unknown) => (error = caught));
    expect(error, 'the body ended as if complete').to.be.instanceOf(Error);
    await within(1000, 'the slot freed', async () => served.deps.exports.slots.running === 0, 2);
    expect(lines).to.have.length(1);
    expect(JSON.parse(lines[0] ?? '')).to.include({
      msg: 'export failed mid-stream: response cut',
      path: '/api/v1/ppas/export',
    });
  });

  it('stops the walk when the client goes away, and frees its slot', async () => {
    const second = heldBack<unknown>();
    let asked!: () => void;
    const walking = new Promise<void>((resolve) => (asked = resolve));
    const { gateway, calls } = recordingGateway({
      search: (_request, _options, nth) => {
        if (nth === 0) return searchResponse(fullBatch(0));
        asked();
        return nth === 1 ? second.promise : searchResponse(fullBatch(nth * EXPORT_BATCH_SIZE));
      },
    });
    const deps = operationDeps({ search: gateway });
    // Told when the server sees the client's connection close.
    let closed!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const app = new Koa();
    app.use(problems());
    app.use((ctx, next) => {
      ctx.res.once('close', closed);
      return next();
    });
    app.use(operationsRouter([exportPpas], deps).routes());
    const server = await listen(app);
    try {
      const sent = request({ host: '127.0.0.1', port: server.port, path: '/api/v1/ppas/export' });
      sent.on('error', () => undefined);
      sent.on('response', (response) => response.on('error', () => undefined).resume());
      sent.end();
      await walking;
      sent.destroy();
      await gone;
      await new Promise((resolve) => setImmediate(resolve));
      // The batch under way comes back full (the real gateway would have cancelled it): the walk goes no further
      // than the batch it prefetches with it.
      second.resolve(searchResponse(fullBatch(EXPORT_BATCH_SIZE)));
      await within(1000, 'the slot freed', async () => deps.exports.slots.running === 0, 2);
      expect(calls.length).to.be.within(2, 3);
    } finally {
      await server.close();
    }
  });

  it('HEAD: the headers of the export, no body, no slot kept', async () => {
    const served = await serve({ search: () => searchResponse([listSource]) });
    const head = await served.get('/api/v1/ppas/export?format=ndjson', { method: 'HEAD' });
    expect([head.status, head.headers['content-type'], head.body.length]).to.deep.equal([
      200,
      'application/x-ndjson',
      0,
    ]);
    await within(1000, 'the slot freed', async () => served.deps.exports.slots.running === 0, 2);
  });

  it('refuses paging, facets and a bad format with a 400 naming each, without a search or a slot', async () => {
    const served = await serveAll();
    const answer = await served.get('/api/v1/ppas/export?page=2&cursor=*&facets=country&format=xlsx');
    expect(answer.status).to.equal(400);
    const reason =
      'is not a parameter of GET /api/v1/ppas/export (an export is every match: no pages, cursor or facets)';
    expect(jsonOf<{ invalid_params: unknown[] }>(answer).invalid_params).to.deep.include.members([
      { name: 'page', reason },
      { name: 'cursor', reason },
      { name: 'facets', reason },
    ]);
    const names = jsonOf<{ invalid_params: { name: string }[] }>(answer).invalid_params.map((p) => p.name);
    expect(names).to.include('format');
    const relevance = await served.get('/api/v1/ppas/export?sort=relevance');
    expect(jsonOf<{ invalid_params: { name: string }[] }>(relevance).invalid_params[0]?.name).to.equal(
      'sort',
    );
    expect(served.calls).to.deep.equal([]);
    expect(served.deps.exports.slots.running).to.equal(0);
  });
});
