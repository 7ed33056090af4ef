// The pages over HTTP: what they are served with (types, CSP, caching), that every asset they link is served,
// and that loading them costs no rate-limit point (their API calls do, as any client's).
import { expect } from 'chai';
import { PAGE_CONTENT_SECURITY_POLICY } from '../../src/pages/routes.js';
import { buildTestApp, type TestApp } from '../support/app.js';
import { indexSample } from '../support/sampleIndex.js';
import { deleteIndices, testEsClient, uniqueName } from '../support/services.js';

describe('pages: the explorer, the API reference and their assets over HTTP', function () {
  this.timeout(60_000);
  const client = testEsClient();
  const alias = uniqueName('pages');
  let app: TestApp;

  before(async () => {
    await indexSample(client, alias);
    app = await buildTestApp({ alias, configOverrides: { rateLimitPoints: 5, logLevel: 'warn' } });
  });

  after(async () => {
    await app?.close();
    await deleteIndices(client, alias);
    await client.close();
  });

  const linkedAssets = (html: string) =>
    [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');

  for (const [path, title] of [
    ['/', 'PPA explorer'],
    ['/api/v1/docs', 'PPA search API reference'],
  ] as const) {
    it(`${path}: HTML with the page CSP, revalidated each load (ETag → 304), every linked asset served`, async () => {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).to.equal(PAGE_CONTENT_SECURITY_POLICY);
      expect(response.headers.get('cache-control')).to.equal('no-cache');
      const html = await response.text();
      expect(html).to.contain(`<title>${title}`);
      expect(html, 'no link to another origin').to.not.match(/(?:src|href)="(?:https?:)?\/\//);
      const etag = response.headers.get('etag') ?? '';
      const again = await fetch(`${app.url}${path}`, { headers: { 'If-None-Match': etag } });
      expect(again.status).to.equal(304);

      const assets = linkedAssets(html);
      expect(assets.length).to.be.greaterThan(1);
      for (const asset of assets) {
        const answer = await fetch(`${app.url}${asset}`);
        expect(answer.status, asset).to.equal(200);
        expect(answer.headers.get('cache-control'), asset).to.equal('public, max-age=31536000, immutable');
        expect((await answer.arrayBuffer()).byteLength, asset).to.be.greaterThan(0);
      }
    });
  }

  it('an asset without its current version is cached briefly; an unknown asset is a 404 problem', async () => {
    const stale = await fetch(`${app.url}/assets/explore.js?v=old`);
    expect(stale.status).to.equal(200);
    expect(stale.headers.get('cache-control')).to.equal('public, max-age=300');
    expect(stale.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    const missing = await fetch(`${app.url}/assets/..%2Fpackage.json`);
    expect(missing.status).to.equal(404);
    expect(missing.headers.get('content-type')).to.match(/^application\/problem\+json/);
  });

  it('pages and assets cost no rate-limit point; the API calls still do', async () => {
    // The quota is 5: far more page and asset loads than that, then the API still has its 5.
    for (let i = 0; i < 12; i++) {
      for (const path of ['/', '/api/v1/docs', '/assets/explore.css']) {
        const response = await fetch(`${app.url}${path}`);
        expect(response.status, path).to.equal(200);
        expect(response.headers.get('ratelimit-limit'), path).to.equal(null);
      }
    }
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${app.url}/api/v1/ppas?per_page=1`)).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
  });

  it('the reference takes no query parameter; other methods are 405', async () => {
    const response = await fetch(`${app.url}/api/v1/docs?x=1`);
    expect(response.status).to.equal(400);
    expect((await fetch(`${app.url}/`, { method: 'POST' })).status).to.equal(405);
  });
});
