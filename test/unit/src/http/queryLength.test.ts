import { expect } from 'chai';
import type { Context } from 'koa';
import { MAX_QUERY_STRING_BYTES } from '../../../../src/http/problem.js';
import { boundedQueryString } from '../../../../src/http/queryLength.js';
import { problems, raw, serveKoa, type KoaServer } from '../../../support/koaServer.js';

describe('http/queryLength: a query string of at most 2,048 bytes as sent', () => {
  let server: KoaServer;
  let reached = 0;
  before(async () => {
    server = await serveKoa(problems(), boundedQueryString(), (ctx: Context) => {
      reached++;
      ctx.body = { bytes: ctx.querystring.length };
    });
  });
  after(() => server.close());

  /** A query string of exactly `bytes` bytes. */
  const queryOf = (bytes: number) => `q=${'a'.repeat(bytes - 2)}`;

  it('lets a query string of the bound through', async () => {
    const answer = await raw(server, `/api/v1/ppas?${queryOf(MAX_QUERY_STRING_BYTES)}`);
    expect(answer.status).to.equal(200);
    expect(JSON.parse(answer.body.toString())).to.deep.equal({ bytes: MAX_QUERY_STRING_BYTES });
  });

  it('refuses one byte more with a 414 problem, before any later layer', async () => {
    const before = reached;
    const answer = await raw(server, `/api/v1/ppas?${queryOf(MAX_QUERY_STRING_BYTES + 1)}`);
    expect(answer.status).to.equal(414);
    expect(answer.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(JSON.parse(answer.body.toString())).to.include({ status: 414 });
    expect(String(JSON.parse(answer.body.toString()).detail)).to.include(
      `${MAX_QUERY_STRING_BYTES + 1} bytes`,
    );
    expect(reached).to.equal(before);
  });

  it('counts the bytes as sent: a percent-encoded character is three', async () => {
    // "é" encoded (%C3%A9) is six bytes: "q=" and 341 of them make the bound; one more is past it.
    const at = `q=${'%C3%A9'.repeat(341)}`;
    expect(at.length).to.equal(MAX_QUERY_STRING_BYTES);
    expect((await raw(server, `/?${at}`)).status).to.equal(200);
    expect((await raw(server, `/?${at}%C3%A9`)).status).to.equal(414);
  });
});
