import { expect } from 'chai';
import type { Context } from 'koa';
import { CLIENT_REQUEST_ID, requestId, requestIdOf } from '../../../../src/http/requestId.js';
import { raw, serveKoa, type KoaServer } from '../../../support/koaServer.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('http/requestId: every request gets an id', () => {
  let server: KoaServer;
  before(async () => {
    // The answer's body is the id the app's later layers see.
    server = await serveKoa(requestId(), (ctx: Context) => {
      ctx.body = requestIdOf(ctx);
    });
  });
  after(() => server.close());

  const answer = async (headers: Record<string, string> = {}) => {
    const { headers: sent, body } = await raw(server, '/', { headers });
    return { header: sent['x-request-id'], seen: body.toString() };
  };

  it('echoes a client’s id that is safe to echo, and gives it to the later layers', async () => {
    for (const id of ['abc-123', 'a.b_c', 'x'.repeat(128)]) {
      expect(await answer({ 'X-Request-Id': id }), id).to.deep.equal({ header: id, seen: id });
    }
  });

  it('gives a new UUID when the client sent none, or one not safe to echo', async () => {
    for (const id of [undefined, 'a b', 'x'.repeat(129), '<script>', 'a/b', 'a%20b']) {
      const { header, seen } = await answer(id === undefined ? {} : { 'X-Request-Id': id });
      expect(header, String(id)).to.match(UUID);
      expect(seen).to.equal(header);
    }
    const first = await answer();
    expect((await answer()).header).to.not.equal(first.header);
  });

  it('the safe form is letters, digits, ".", "_", "-", at most 128', () => {
    expect(CLIENT_REQUEST_ID.test('A-z.0_9')).to.equal(true);
    expect(CLIENT_REQUEST_ID.test('')).to.equal(false);
    expect(CLIENT_REQUEST_ID.test('a/b')).to.equal(false);
  });

  it('is empty before requestId() ran', () => {
    expect(requestIdOf({ state: {} })).to.equal('');
    expect(requestIdOf({ state: { requestId: 42 } })).to.equal('');
  });
});
