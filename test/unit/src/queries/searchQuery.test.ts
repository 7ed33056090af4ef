// The query the list, statistics and export share: active only, the filters unscored, q the one scoring clause.
import { expect } from 'chai';
import { SearchText } from '../../../../src/matching/queryText.js';
import { parseFeedQuery } from '../../../../src/params/changes.js';
import {
  buildFilterClauses,
  buildNamedFilterClauses,
  buildSearchQuery,
} from '../../../../src/queries/searchQuery.js';
import { buildTextQuery } from '../../../../src/queries/textQuery.js';

describe('queries/searchQuery', () => {
  it('always keeps active PPAs only, first, with no facet of its own', () => {
    expect(buildNamedFilterClauses({})).to.deep.equal([{ clause: { term: { active: true } } }]);
    expect(buildFilterClauses(parseFeedQuery('country=gh'))).to.deep.equal([
      { term: { active: true } },
      { terms: { country_code: ['GH'] } },
    ]);
  });

  it('scores only q; without q nothing is scored; given clauses replace the filters (a post_filter keeps the rest)', () => {
    expect(buildSearchQuery({})).to.deep.equal({ bool: { filter: [{ term: { active: true } }] } });
    expect(buildSearchQuery({ q: new SearchText('kafue') })).to.deep.equal({
      bool: { filter: [{ term: { active: true } }], must: [buildTextQuery('kafue')] },
    });
    expect(buildSearchQuery(parseFeedQuery('tariff=energy_only'), [])).to.deep.equal({
      bool: { filter: [] },
    });
  });
});
