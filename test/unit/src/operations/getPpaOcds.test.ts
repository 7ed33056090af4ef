// GET /api/v1/ppas/{slug}/ocds: a malformed slug is a 404 without a search; a well-formed one is searched by id with
// the detail's fields; none found is 404; found, the record package dated by the hit's index. In-process over a
// recording gateway; the package itself is ocdsPackage.test.ts's.
import { expect } from 'chai';
import type { DetailSource } from '../../../../indexContract/sourceFields.js';
import { buildDocument } from '../../../../indexer/elasticsearch/buildDocument.js';
import { getPpaOcds } from '../../../../src/operations/getPpaOcds.js';
import { jsonOf } from '../../../support/koaServer.js';
import { searchResponse } from '../../../support/recordingGateway.js';
import { records } from '../../../support/sampleOracle.js';
import { operationServers } from '../../../support/servedOperations.js';

const source = buildDocument(records.find((record) => record.published)!) as DetailSource;

describe('operations/getPpaOcds: GET /api/v1/ppas/{slug}/ocds', () => {
  const serve = operationServers([getPpaOcds]);

  it('answers a malformed slug as unknown without a search, an unknown one after it', async () => {
    const served = await serve({ search: () => searchResponse([]) });
    expect((await served.get('/api/v1/ppas/Not-A-Slug/ocds')).status).to.equal(404);
    expect(served.requests('search')).to.have.length(0);
    expect((await served.get('/api/v1/ppas/kahone-solar/ocds')).status).to.equal(404);
    expect(served.requests('search')[0]?.query).to.deep.equal({ ids: { values: ['kahone-solar'] } });
  });

  it('answers the record package, dated when the hit’s index was built', async () => {
    const served = await serve({
      search: () => ({
        ...searchResponse([source]),
        hits: { hits: [{ _index: 'ppas-20260102t030405006z', _id: source.slug, _source: source }] },
      }),
    });
    const answer = await served.get(`/api/v1/ppas/${source.slug}/ocds`);
    const body = jsonOf<{ uri: string; publishedDate: string; records: { ocid: string }[] }>(answer);
    expect(answer.status).to.equal(200);
    expect(body.publishedDate).to.equal('2026-01-02T03:04:05.006Z');
    expect(body.uri).to.equal(`${served.server.base}/api/v1/ppas/${source.slug}/ocds`);
    expect(body.records[0]?.ocid).to.equal(`ocds-unregistered-${source.slug}`);
  });
});
