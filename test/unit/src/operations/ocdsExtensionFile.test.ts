import { expect } from 'chai';
import { ocdsExtensionFile } from '../../../../src/operations/ocdsExtensionFile.js';
import { extensionReleaseSchema } from '../../../../src/present/ocdsExtension.js';
import { jsonOf } from '../../../support/koaServer.js';
import { operationServers } from '../../../support/servedOperations.js';

describe('operations/ocdsExtensionFile: GET /api/v1/ocds/{file}', () => {
  const serve = operationServers([ocdsExtensionFile]);

  it('serves extension.json and the patches it names, without a search; any other name is 404', async () => {
    const served = await serve();
    const extension = jsonOf<{ documentationUrl: { en: string } }>(
      await served.get('/api/v1/ocds/extension.json'),
    );
    expect(extension.documentationUrl.en).to.equal(`${served.server.base}/api/v1/docs`);
    expect(jsonOf(await served.get('/api/v1/ocds/release-schema.json'))).to.deep.equal(
      JSON.parse(JSON.stringify(extensionReleaseSchema())),
    );
    for (const name of ['toString', '__proto__', 'x.json']) {
      expect((await served.get(`/api/v1/ocds/${name}`)).status, name).to.equal(404);
    }
    expect(served.calls).to.deep.equal([]);
  });
});
