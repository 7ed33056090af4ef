// Compression: br or gzip as the client accepts, the same JSON once decoded, an ETag per encoding that still
// revalidates, nothing compressed under 1 KB, and the streamed export compressed too.
import { expect } from 'chai';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { useSampleApp } from '../support/sampleApp.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body comes back as sent (Node's fetch would decode it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (raw: Raw): string => {
  const encoding = raw.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(raw.body).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(raw.body).toString('utf8');
  return raw.body.toString('utf8');
};

/**
 * The body without meta.changes_since: two answers computed apart may differ in it alone (it is null when the
 * change log's head could not be read within its short wait, as on a loaded machine: docs/api.md).
 */
function withoutChangesSince(json: string): unknown {
  const body = JSON.parse(json) as { meta: { changes_since?: unknown } };
  expect(body.meta.changes_since === null || typeof body.meta.changes_since === 'string').to.equal(true);
  delete body.meta.changes_since;
  return body;
}

describe('compression of answers', function () {
  this.timeout(60_000);
  const { app } = useSampleApp('api-compression');
  const list = () => `${app().url}/api/v1/ppas?per_page=25`;

  for (const encoding of ['gzip', 'br'] as const) {
    it(`a list page with Accept-Encoding: ${encoding} comes back ${encoding}-encoded, the same JSON decoded`, async () => {
      const plain = await rawGet(list());
      const encoded = await rawGet(list(), { 'Accept-Encoding': encoding });
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(encoded.headers['content-encoding']).to.equal(encoding);
      expect(String(encoded.headers.vary)).to.match(/Accept-Encoding/i);
      expect(encoded.body.length).to.be.below(plain.body.length / 2);
      expect(withoutChangesSince(decode(encoded))).to.deep.equal(
        withoutChangesSince(plain.body.toString('utf8')),
      );
    });
  }

  it('prefers br when both are accepted (browsers send "gzip, deflate, br")', async () => {
    const answer = await rawGet(list(), { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(answer.headers['content-encoding']).to.equal('br');
  });

  it('gives each encoding its own ETag, and revalidates either way (304)', async () => {
    const plain = await rawGet(list());
    const gzip = await rawGet(list(), { 'Accept-Encoding': 'gzip' });
    const tag = String(plain.headers.etag);
    expect(gzip.headers.etag).to.equal(tag.replace(/"$/, '-gzip"'));
    for (const sent of [String(gzip.headers.etag), tag]) {
      const again = await rawGet(list(), { 'Accept-Encoding': 'gzip', 'If-None-Match': sent });
      expect(again.status, `If-None-Match: ${sent}`).to.equal(304);
    }
  });

  it('a HEAD carries the headers of its GET: the encoding, its ETag, the encoded length', async () => {
    const get = await rawGet(list(), { 'Accept-Encoding': 'gzip' });
    const head = await new Promise<Raw>((resolve, reject) => {
      const req = request(
        list(),
        { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' }, agent: false },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(head.headers['content-encoding']).to.equal('gzip');
    expect(head.headers.etag).to.equal(get.headers.etag);
    expect(Number(head.headers['content-length'])).to.equal(get.body.length);
  });

  it('leaves bodies under 1 KB as they are', async () => {
    for (const path of ['/health/live', '/api/v1/ppas/no-such-ppa', '/api/v1/ppas?per_page=1&fields=slug']) {
      const answer = await rawGet(`${app().url}${path}`, { 'Accept-Encoding': 'gzip, br' });
      expect(answer.body.length, path).to.be.below(1024);
      expect(answer.headers['content-encoding'], path).to.equal(undefined);
    }
  });

  it('compresses the streamed export, which decodes to the same lines', async () => {
    const url = `${app().url}/api/v1/ppas/export?format=ndjson&technology=wind`;
    const plain = await rawGet(url);
    const encoded = await rawGet(url, { 'Accept-Encoding': 'gzip' });
    expect(encoded.headers['content-encoding']).to.equal('gzip');
    expect(decode(encoded)).to.equal(plain.body.toString('utf8'));
  });
});
