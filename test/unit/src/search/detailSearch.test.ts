import { expect } from 'chai';
import { buildDetailSearch } from '../../../../src/search/detailSearch.js';

describe('api search: detail request', () => {
  it('looks the slug up without the active filter', () => {
    const request = buildDetailSearch('kahone-solar');
    expect(request.query).to.deep.equal({ bool: { filter: [{ term: { slug: 'kahone-solar' } }] } });
    expect(request.size).to.equal(1);
    expect(request._source).to.include.members(['active', 'procurement', 'versions', 'documents']);
  });
});
