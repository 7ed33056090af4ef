import { expect } from 'chai';
import { SearchText } from '../../../../src/matching/queryText.js';
import { decodeCursor, encodeCursor, positionAfter, type WalkQuery } from '../../../../src/params/cursor.js';
import { parseListQuery } from '../../../../src/params/list.js';
import { buildListSearch } from '../../../../src/queries/listSearch.js';

const walk: WalkQuery = {
  sort: 'recent',
  technology: { chosen: ['wind', 'hydro'], left: [] },
  q: new SearchText('solar'),
};

describe('api params: cursor', () => {
  it('round-trips a position for the same query, whatever the order of its lists', () => {
    const cursor = encodeCursor(walk, { after: [1_700_000_000_000, 'a-b'], missing: false });
    expect(cursor).to.match(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(
      decodeCursor({ ...walk, technology: { left: [], chosen: ['hydro', 'wind'] } }, cursor),
    ).to.deep.equal({
      start: false,
      after: [1_700_000_000_000, 'a-b'],
      missing: false,
    });
    expect(decodeCursor(walk, '*')).to.deep.equal({ start: true });
  });

  it('refuses it for another query or when altered', () => {
    const cursor = encodeCursor(walk, { after: [5, 'x'], missing: false });
    expect(decodeCursor({ ...walk, sort: 'oldest' }, cursor)).to.have.property('problem');
    expect(decodeCursor({ ...walk, year: { from: 2020, to: 2020 } }, cursor)).to.have.property('problem');
    const forged = `${Buffer.from(JSON.stringify([[9, 'x'], 0])).toString('base64url')}.${cursor.split('.')[1]}`;
    expect(decodeCursor(walk, forged)).to.have.property('problem');
    expect(decodeCursor(walk, '%%%')).to.have.property('problem');
  });

  it('a missing date (±2^63 from Elasticsearch) becomes "the rest, by slug"', () => {
    expect(positionAfter([-9223372036854775808, 'z-1'])).to.deep.equal({ after: ['z-1'], missing: true });
    expect(positionAfter([12.5, 'z-1'])).to.deep.equal({ after: [12.5, 'z-1'], missing: false });
    const query = parseListQuery('sort=recent&cursor=*');
    const resumed = buildListSearch({ ...query, cursor: { start: false, after: ['z-1'], missing: true } });
    expect(resumed.sort).to.deep.equal([{ slug: { order: 'asc' } }]);
    expect(resumed.search_after).to.deep.equal(['z-1']);
    expect(JSON.stringify(resumed.query)).to.contain('{"must_not":[{"exists":{"field":"published_at"}}]}');
  });
});
