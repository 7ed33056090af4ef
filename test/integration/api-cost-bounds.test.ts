// What one request may cost (issue 15): the query-string bound (414), the bounds after folding, the 20-problem
// cap, the header block under 8 KB for the longest legal request, and Elasticsearch's own size refusal as a 400.
import { expect } from 'chai';
import { request } from 'node:http';
import { BadRequestError } from '../../src/http/problem.js';
import { createSearchGateway } from '../../src/gateway/gateway.js';
import { paramNames, ppasApi } from '../support/ppasApi.js';
import { useSampleApp } from '../support/sampleApp.js';
import { toProblem } from '../../src/http/problemResponses.js';
import { SearchTooLargeError } from '../../src/gateway/searchErrors.js';

/** The raw size of the response header block (status line and headers), as a proxy would buffer it. */
function headerBytes(url: string): Promise<{ status: number; bytes: number; link: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage}`];
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes: Buffer.byteLength(`${lines.join('\r\n')}\r\n\r\n`),
          link: 'link' in res.headers,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('what a request may cost', function () {
  this.timeout(120_000);
  const { app, client, alias } = useSampleApp('api-bounds');
  const { get, problem } = ppasApi(() => app().url);

  it('a query string past 2,048 bytes is 414 problem+json, on every endpoint; 2,048 is still served', async () => {
    for (const path of [
      '/api/v1/ppas',
      '/api/v1/ppas/statistics',
      '/api/v1/ppas/suggest',
      '/api/v1/ppas/x-y',
    ]) {
      const body = await problem(`${path}?q=${'a'.repeat(2047)}`, 414);
      expect(body.status).to.equal(414);
    }
    const exact = `q=${'%E5%8C%97'.repeat(200)}&developer=${'d'.repeat(100)}&technology=${'t'.repeat(30)}`;
    const padded = `${exact}&${'x'.repeat(2048 - exact.length - 1)}`;
    expect(padded.length).to.equal(2048);
    // 2,048 bytes pass the length check (and the unknown parameter is then named, as any is).
    expect(paramNames(await problem(`/api/v1/ppas?${padded}`))).to.deep.equal([padded.split('&').pop()]);
  });

  it('the longest legal list request gets its 200 with a header block under 8 KB (Link left out)', async () => {
    const query =
      `q=${'%E5%8C%97'.repeat(200)}&developer=${'d'.repeat(100)}&` +
      `technology=${Array.from({ length: 20 }, (_, i) => `t${i}`).join(',')}&per_page=1&page=2`;
    expect(query.length).to.be.at.most(2048);
    const answer = await headerBytes(`${app().url}/api/v1/ppas?${query}`);
    expect(answer.status).to.equal(200);
    expect(answer.link).to.equal(false);
    expect(answer.bytes).to.be.below(8192);
    const short = await headerBytes(`${app().url}/api/v1/ppas?q=solar&per_page=1`);
    expect(short.link).to.equal(true);
  });

  it('q of 200 × U+FDFA (3,600 characters folded) is a 400 naming q, not a 307 KB search', async () => {
    const body = await problem(`/api/v1/ppas?q=${encodeURIComponent('ﷺ'.repeat(200))}`);
    expect(paramNames(body)).to.deep.equal(['q']);
    const stats = await problem(`/api/v1/ppas/statistics?q=${encodeURIComponent('ﷺ'.repeat(200))}`);
    expect(paramNames(stats)).to.deep.equal(['q']);
    // 11 of them fold to 198 characters and 44 words: refused by the word bound.
    expect(paramNames(await problem(`/api/v1/ppas?q=${encodeURIComponent('ﷺ'.repeat(11))}`))).to.deep.equal([
      'q',
    ]);
    expect((await get(`/api/v1/ppas?q=${encodeURIComponent('ﷺ')}`)).status).to.equal(200);
  });

  it('thousands of bad tokens: a 400 with 20 problems and a short body', async () => {
    const tokens = Array.from({ length: 400 }, (_, i) => `b-${i}`).join(',');
    const response = await fetch(`${app().url}/api/v1/ppas?technology=${tokens.slice(0, 1900)}`);
    expect(response.status).to.equal(400);
    const text = await response.text();
    const body = JSON.parse(text) as { invalid_params: unknown[]; detail: string };
    expect(body.invalid_params.length).to.be.at.most(20);
    expect(text.length).to.be.below(8000);
  });

  it('Elasticsearch refusing a search for its size is a 400 for the client, never a 500', async () => {
    const gateway = createSearchGateway({ client, alias, requestTimeoutMs: 30_000 });
    const should = Array.from({ length: 20_000 }, (_, i) => ({ term: { slug: `s-${i}` } }));
    let thrown: unknown;
    try {
      await gateway.search({ query: { bool: { should } }, size: 0 });
    } catch (error) {
      thrown = error;
    }
    // The gateway says what happened; http/ makes it the client's 400 naming q.
    expect(thrown).to.be.instanceOf(SearchTooLargeError);
    const problem = toProblem(thrown);
    expect(problem).to.be.instanceOf(BadRequestError);
    expect(problem.invalidParams?.[0]?.name).to.equal('q');
  });

  it('a search refused for its size inside an _msearch is the same 400, the other search answered or not', async () => {
    const gateway = createSearchGateway({ client, alias, requestTimeoutMs: 30_000 });
    const should = Array.from({ length: 20_000 }, (_, i) => ({ term: { slug: `s-${i}` } }));
    let thrown: unknown;
    try {
      await gateway.msearch([{ size: 0 }, { query: { bool: { should } }, size: 0 }]);
    } catch (error) {
      thrown = error;
    }
    // The gateway says what happened; http/ makes it the client's 400 naming q.
    expect(thrown).to.be.instanceOf(SearchTooLargeError);
    const problem = toProblem(thrown);
    expect(problem).to.be.instanceOf(BadRequestError);
    expect(problem.invalidParams?.[0]?.name).to.equal('q');
    const answers = await gateway.msearch([{ size: 1 }, { size: 0, track_total_hits: true }]);
    expect(answers).to.have.length(2);
    expect(answers[0]!.hits.hits).to.have.length(1);
    expect((answers[1]!.hits.total as { value: number }).value).to.be.above(0);
  });
});
