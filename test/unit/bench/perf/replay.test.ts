import { expect } from 'chai';
import { replaying } from '../../../../bench/perf/replay.js';

describe('bench/perf/replay: answers recorded once, replayed after', () => {
  it('asks once per distinct request and answers the same again, as a fresh object each time', async () => {
    const asked: string[] = [];
    const search = replaying(async (request: { q: string }) => {
      asked.push(request.q);
      return { hits: [request.q], at: asked.length };
    });
    const first = await search({ q: 'solar' });
    const again = await search({ q: 'solar' });
    await search({ q: 'wind' });
    expect(asked).to.deep.equal(['solar', 'wind']);
    expect(again).to.deep.equal(first);
    expect(again).to.not.equal(first); // parsed again, as the client would: no answer shared between requests
  });
});
