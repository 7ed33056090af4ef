// GET /api/v1/openapi.json: the document the app serialized once, sent as it is (its type, its ETag, its
// compressed forms, 304s), with no search and no query parameter (any is a 400). Driven through Koa in-process.
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { OPERATIONS } from '../../../../src/operations/catalog.js';
import { buildOpenApiSpec } from '../../../../src/operations/openApi.js';
import { openApiDocument } from '../../../../src/operations/openApiDocument.js';
import { jsonRepresentation } from '../../../../src/wire/representation.js';
import { jsonOf } from '../../../support/koaServer.js';
import { operationServers } from '../../../support/servedOperations.js';

const PATH = '/api/v1/openapi.json';

describe('operations/openApiDocument: GET /api/v1/openapi.json', () => {
  const serve = operationServers([openApiDocument]);
  const serveAll = operationServers(OPERATIONS);

  it('sends the document it was given, byte for byte, with its ETag and no search', async () => {
    const document = jsonRepresentation({ openapi: '3.1.0', info: { title: 'given' }, paths: {} });
    const served = await serve({}, { openApiDocument: document });
    const answer = await served.get(PATH);
    expect(answer.status).to.equal(200);
    expect(answer.body.equals(document.body!)).to.equal(true);
    expect(answer.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).to.equal('public, max-age=60');
    expect(answer.headers.etag).to.equal(document.etag);
    expect(served.calls).to.deep.equal([]);
  });

  it('compresses the whole document for a client that takes gzip; 304 for either form of its tag', async () => {
    const document = jsonRepresentation(buildOpenApiSpec());
    const served = await serve({}, { openApiDocument: document });
    const gzipped = await served.get(PATH, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).to.equal('gzip');
    expect(gzipped.headers.vary).to.include('Accept-Encoding');
    expect(gzipped.headers.etag).to.equal(document.etag.replace(/"$/, '-gzip"'));
    expect(gunzipSync(gzipped.body).equals(document.body!)).to.equal(true);
    for (const tag of [document.etag, String(gzipped.headers.etag)]) {
      const revalidated = await served.get(PATH, { headers: { 'If-None-Match': tag } });
      expect([revalidated.status, revalidated.body.length], tag).to.deep.equal([304, 0]);
    }
    const head = await served.get(PATH, { method: 'HEAD' });
    expect([head.status, head.headers.etag, head.body.length]).to.deep.equal([200, document.etag, 0]);
  });

  it('takes no query parameter: a 400 naming each, another operation’s said to be one', async () => {
    const served = await serveAll();
    const answer = await served.get(`${PATH}?q=solar&zz=1`);
    expect(answer.status).to.equal(400);
    expect(jsonOf(answer).invalid_params).to.deep.equal([
      { name: 'q', reason: 'is not a parameter of GET /api/v1/openapi.json (it takes none)' },
      { name: 'zz', reason: 'unknown parameter' },
    ]);
  });
});
