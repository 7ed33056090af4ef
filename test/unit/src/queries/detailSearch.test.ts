import { expect } from 'chai';
import { buildDetailLookup } from '../../../../src/queries/detailSearch.js';

describe('api search: detail request', () => {
  it('gets the document by its slug (no active filter, not realtime), with the detail fields only', () => {
    const lookup = buildDetailLookup('kahone-solar');
    expect(lookup.id).to.equal('kahone-solar');
    expect(lookup.realtime).to.equal(false);
    expect(lookup._source_includes).to.include.members(['active', 'procurement', 'versions', 'documents']);
    expect(lookup._source_includes).to.not.include('name_prefixes');
  });
});
