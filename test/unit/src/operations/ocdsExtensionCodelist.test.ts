import { expect } from 'chai';
import { ocdsExtensionCodelist } from '../../../../src/operations/ocdsExtensionCodelist.js';
import { addedDocumentTypesCsv } from '../../../../src/present/ocdsExtension.js';
import { operationServers } from '../../../support/servedOperations.js';

describe('operations/ocdsExtensionCodelist: GET /api/v1/ocds/codelists/{file}', () => {
  const serve = operationServers([ocdsExtensionCodelist]);

  it('serves +documentType.csv (also percent-encoded) as CSV with an ETag; any other is 404', async () => {
    const served = await serve();
    for (const path of ['+documentType.csv', '%2BdocumentType.csv']) {
      const answer = await served.get(`/api/v1/ocds/codelists/${path}`);
      expect(answer.status, path).to.equal(200);
      expect(answer.headers['content-type']).to.match(/^text\/csv/);
      expect(answer.headers.etag).to.be.a('string');
      expect(answer.body.toString()).to.equal(addedDocumentTypesCsv());
    }
    expect((await served.get('/api/v1/ocds/codelists/documentType.csv')).status).to.equal(404);
  });
});
