// GET /api/v1/ppas/ocds: one search (the list's page and one more), the package dated by the first hit's index or,
// with no hit, by the live index looked up; the Link header beside links.next. In-process over a recording gateway.
import { expect } from 'chai';
import type { DetailSource } from '../../../../indexContract/sourceFields.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { listPpasOcds } from '../../../../src/operations/listPpasOcds.js';
import { jsonOf } from '../../../support/koaServer.js';
import { liveStateOf } from '../../../support/liveState.js';
import { searchResponse } from '../../../support/recordingGateway.js';
import { records } from '../../../support/sampleOracle.js';
import { operationServers } from '../../../support/servedOperations.js';

const sources = records
  .filter((record) => record.published && record.active)
  .slice(0, 3)
  .map((record) => buildDocument(record) as DetailSource);

describe('operations/listPpasOcds: GET /api/v1/ppas/ocds', () => {
  const serve = operationServers([listPpasOcds]);

  it('searches a page and one more; links.next and Link while more remain', async () => {
    const served = await serve({
      search: () => searchResponse(sources.map((source, i) => ({ source, sort: [i, source.slug] }))),
    });
    const answer = await served.get('/api/v1/ppas/ocds?per_page=2');
    const body = jsonOf<{ releases: unknown[]; links?: { next: string } }>(answer);
    expect(answer.status).to.equal(200);
    expect(served.requests('search')[0]?.size).to.equal(3);
    expect(body.releases).to.have.length(2);
    expect(body.links?.next).to.include('/api/v1/ppas/ocds?per_page=2&cursor=');
    expect(answer.headers.link).to.include('rel="next"');
  });

  it('a search that finds nothing: an empty package dated by the live index', async () => {
    const served = await serve(
      { search: () => searchResponse([]) },
      { liveState: liveStateOf({ liveIndex: async () => 'ppas-20260102t030405006z' }) },
    );
    const body = jsonOf<{ releases: unknown[]; publishedDate: string; links?: unknown }>(
      await served.get('/api/v1/ppas/ocds?technology=none'),
    );
    expect(body).to.deep.include({ releases: [], publishedDate: '2026-01-02T03:04:05.006Z' });
    expect(body.links).to.equal(undefined);
  });
});
