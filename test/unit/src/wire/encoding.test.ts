// Which encoding an answer is sent in, and the encodings themselves.
import { expect } from 'chai';
import type { Context } from 'koa';
import {
  acceptedEncoding,
  COMPRESSION_THRESHOLD_BYTES,
  decodeBody,
  encodeBody,
  isCompressible,
} from '../../../../src/wire/encoding.js';

const ctxAccepting = (acceptEncoding: string) =>
  ({
    get: (name: string) => (name.toLowerCase() === 'accept-encoding' ? acceptEncoding : ''),
    request: { headers: { 'accept-encoding': acceptEncoding } },
  }) as unknown as Context;

describe('wire/encoding', () => {
  it('prefers br, then gzip, as the client accepts them, and sends small or binary answers as they are', () => {
    const big = COMPRESSION_THRESHOLD_BYTES;
    expect(acceptedEncoding(ctxAccepting('gzip, deflate, br'), big)).to.equal('br');
    expect(acceptedEncoding(ctxAccepting('gzip'), big)).to.equal('gzip');
    expect(acceptedEncoding(ctxAccepting('br;q=0, gzip;q=0.5'), big)).to.equal('gzip');
    expect(acceptedEncoding(ctxAccepting('identity'), big)).to.equal(undefined);
    expect(acceptedEncoding(ctxAccepting(''), big)).to.equal(undefined);
    expect(acceptedEncoding(ctxAccepting('br'), big - 1)).to.equal(undefined);
    expect(acceptedEncoding(ctxAccepting('br'), big, 'image/png')).to.equal(undefined);
  });

  it('compresses JSON, NDJSON, CSV and XML, and round-trips each encoding', () => {
    for (const type of [
      'application/json',
      'application/x-ndjson',
      'text/csv; charset=utf-8',
      'application/atom+xml',
    ])
      expect(isCompressible(type), type).to.equal(true);
    const body = Buffer.from('{"data":[]}'.repeat(200));
    for (const encoding of ['br', 'gzip'] as const) {
      const encoded = encodeBody(encoding, body);
      expect(encoded.length).to.be.below(body.length);
      expect(decodeBody(encoding, encoded).equals(body)).to.equal(true);
    }
  });
});
