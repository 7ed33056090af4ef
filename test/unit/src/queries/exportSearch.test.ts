// An export's batches: the list's query and sort, walked with search_after, no total.
import { expect } from 'chai';
import { parseExportQuery } from '../../../../src/params/export.js';
import {
  buildExportBatch,
  EXPORT_BATCH_SIZE,
  OCDS_EXPORT_BATCH_SIZE,
} from '../../../../src/queries/exportSearch.js';
import { buildSearchQuery } from '../../../../src/queries/searchQuery.js';
import { DETAIL_SOURCE_FIELDS } from '../../../../indexContract/sourceFields.js';

describe('queries/exportSearch', () => {
  it('asks a batch of the chosen fields in the list’s order, and the next one after the last sort values', () => {
    const query = parseExportQuery('technology=wind&sort=capacity_desc&fields=capacity_mw');
    const first = buildExportBatch(query);
    expect(first).to.deep.include({
      size: EXPORT_BATCH_SIZE,
      track_total_hits: false,
      _source: ['slug', 'capacity_mw'],
    });
    expect(first.query).to.deep.equal(buildSearchQuery(query));
    expect(first).to.not.have.property('search_after');
    expect(buildExportBatch(query, [50, 'x']).search_after).to.deep.equal([50, 'x']);
  });

  it('reads the detail’s fields in smaller batches for OCDS', () => {
    const batch = buildExportBatch(parseExportQuery('format=ocds'));
    expect(batch.size).to.equal(OCDS_EXPORT_BATCH_SIZE);
    expect(batch._source).to.deep.equal([...DETAIL_SOURCE_FIELDS]);
  });
});
