import { expect } from 'chai';
import { SearchText } from '../../../../src/matching/queryText.js';
import {
  decodeChangeToken,
  encodeChangeToken,
  parseChangesQuery,
  parseFeedQuery,
} from '../../../../src/params/changes.js';
import { BadRequestError } from '../../../../src/http/problem.js';

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(BadRequestError);
    return (error as BadRequestError).invalidParams!.map((problem) => problem.name);
  }
  return [];
}

describe('api params: changes and feed', () => {
  it('tokens round-trip; anything else is no token', () => {
    expect(decodeChangeToken(encodeChangeToken({ epoch: 'ab12', seq: 1042 }))).to.deep.equal({
      epoch: 'ab12',
      seq: 1042,
    });
    for (const bad of ['ab12', 'ab12.', '.5', 'ab-12.5', 'ab12.05', 'ab12.1.2', `a.${'9'.repeat(16)}`])
      expect(decodeChangeToken(bad), bad).to.equal(null);
  });

  it('since is a token, an RFC 3339 time or absent; limit 1-1000; filters as the list', () => {
    expect(parseChangesQuery('')).to.deep.equal({ filters: {}, start: { oldest: true }, limit: 100 });
    expect(parseChangesQuery('since=ab12.7&limit=1000&technology=hydro')).to.deep.equal({
      filters: { technology: { chosen: ['hydro'], left: [] } },
      start: { after: { epoch: 'ab12', seq: 7 } },
      limit: 1000,
    });
    expect(parseChangesQuery('since=2026-11-26T09:00:00%2B01:00').start).to.deep.equal({
      from: '2026-11-26T08:00:00.000Z',
    });
    expect(problemsOf(() => parseChangesQuery('since=yesterday&limit=0&page=2'))).to.have.members([
      'since',
      'limit',
      'page',
    ]);
    expect(problemsOf(() => parseChangesQuery('since=2026-13-01T00:00:00Z'))).to.deep.equal(['since']);
    expect(problemsOf(() => parseChangesQuery('min_capacity=5&max_capacity=1'))).to.not.deep.equal([]);
  });

  it('the feed takes the filters and q only', () => {
    expect(parseFeedQuery('q=kafue&country=sn')).to.deep.equal({
      q: new SearchText('kafue'),
      country: { chosen: ['SN'], left: [] },
    });
    expect(problemsOf(() => parseFeedQuery('since=ab.1&page=1'))).to.have.members(['since', 'page']);
  });
});
