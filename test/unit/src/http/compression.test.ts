import { expect } from 'chai';
import type { Context } from 'koa';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compression } from '../../../../src/http/compression.js';
import { COMPRESSION_THRESHOLD_BYTES } from '../../../../src/wire/encoding.js';
import { raw, serveKoa, type KoaServer } from '../../../support/koaServer.js';

const CSV = `slug,country\n${'kafue-gorge,ZM\n'.repeat(200)}`;

describe('http/compression: streamed exports and problems, compressed as the client accepts', () => {
  let server: KoaServer;
  before(async () => {
    server = await serveKoa(compression(), (ctx: Context) => {
      const [type, size] = [ctx.query.type, Number(ctx.query.size)];
      ctx.type = typeof type === 'string' ? type : 'text/csv';
      ctx.body = Number.isFinite(size) ? CSV.slice(0, size) : CSV;
    });
  });
  after(() => server.close());

  it('br when the client takes it, gzip when only that; the body as it was, and Vary: Accept-Encoding', async () => {
    const br = await raw(server, '/', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).to.equal('br');
    expect(br.headers.vary).to.match(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.body).toString()).to.equal(CSV);
    expect(br.body.length).to.be.below(CSV.length);
    const gzip = await raw(server, '/', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(gzip.body).toString()).to.equal(CSV);
  });

  it('NDJSON is compressed too (mime-db does not call it compressible)', async () => {
    const answer = await raw(server, '/?type=application/x-ndjson', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(answer.headers['content-encoding']).to.equal('gzip');
  });

  it('sends as it is: below the threshold, deflate only, no Accept-Encoding, a type not worth it', async () => {
    const asIs = [
      ['/?size=' + String(COMPRESSION_THRESHOLD_BYTES - 1), 'gzip, br'],
      ['/', 'deflate'],
      ['/', ''],
      ['/?type=image/png', 'gzip, br'],
    ] as const;
    for (const [path, accepted] of asIs) {
      const answer = await raw(server, path, accepted ? { headers: { 'Accept-Encoding': accepted } } : {});
      expect(answer.headers['content-encoding'], `${path} ${accepted}`).to.equal(undefined);
      expect(answer.body.toString(), `${path} ${accepted}`).to.equal(
        path.startsWith('/?size') ? CSV.slice(0, COMPRESSION_THRESHOLD_BYTES - 1) : CSV,
      );
    }
  });
});
