// GET /api/v1/ppas/export's parameters: the list's filters, q and sort, the columns and the format.
import { expect } from 'chai';
import { SearchText } from '../../../../src/matching/queryText.js';
import { parseExportQuery } from '../../../../src/params/export.js';
import { ITEM_FIELDS } from '../../../../src/params/itemFields.js';
import { names, problemsOf } from '../../../support/problems.js';

describe('params/export', () => {
  it('defaults to CSV of every field in recent order; relevance with q', () => {
    expect(parseExportQuery('')).to.deep.equal({ sort: 'recent', format: 'csv', fields: [...ITEM_FIELDS] });
    expect(parseExportQuery('q=solar&format=ndjson&fields=capacity_mw')).to.deep.include({
      q: new SearchText('solar'),
      sort: 'relevance',
      format: 'ndjson',
      fields: ['slug', 'capacity_mw'],
    });
  });

  it('refuses paging, facets and fields with ocds, naming each', () => {
    expect(
      names(problemsOf(() => parseExportQuery('page=2&per_page=10&cursor=*&facets=technology'))),
    ).to.deep.equal(['cursor', 'facets', 'page', 'per_page']);
    expect(names(problemsOf(() => parseExportQuery('format=ocds&fields=slug')))).to.deep.equal(['fields']);
    expect(names(problemsOf(() => parseExportQuery('format=xlsx')))).to.deep.equal(['format']);
  });
});
