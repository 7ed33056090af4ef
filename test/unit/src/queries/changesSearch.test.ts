// The change log's searches: events whose PPA matches the filters and q, in sequence order, nothing scored.
import { expect } from 'chai';
import { parseFeedQuery } from '../../../../src/params/changes.js';
import { buildChangesSearch } from '../../../../src/queries/changesSearch.js';

describe('queries/changesSearch', () => {
  it('starts after a sequence or from a time, in the order asked, every clause a filter (no active-only)', () => {
    const after = buildChangesSearch(parseFeedQuery('technology=wind'), { afterSeq: 41 }, 100, 'asc');
    expect(after).to.deep.include({ size: 100, track_total_hits: false, sort: [{ 'change.seq': 'asc' }] });
    expect(after.query).to.deep.equal({
      bool: { filter: [{ range: { 'change.seq': { gt: 41 } } }, { terms: { technology: ['wind'] } }] },
    });
    const from = buildChangesSearch({}, { from: '2026-12-01T00:00:00.000Z' }, 50, 'desc');
    expect(from.sort).to.deep.equal([{ 'change.seq': 'desc' }]);
    expect(from.query).to.deep.equal({
      bool: { filter: [{ range: { 'change.at': { gte: '2026-12-01T00:00:00.000Z' } } }] },
    });
  });

  it('puts q in filter context: events come in their order, never by score', () => {
    const search = buildChangesSearch(parseFeedQuery('q=kafue'), { afterSeq: 0 }, 10, 'asc');
    const filters = (search.query as { bool: { filter: unknown[]; must?: unknown } }).bool;
    expect(filters.filter).to.have.length(2);
    expect(filters).to.not.have.property('must');
    expect(search._source).to.include.members(['slug', 'active', 'change']);
  });
});
