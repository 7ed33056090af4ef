import { expect } from 'chai';
import { DETAIL_SOURCE_FIELDS } from '../../../../indexContract/sourceFields.js';
import { ocdsReleasesQuery } from '../../../../src/params/ocdsReleases.js';
import { parseListQuery } from '../../../../src/params/list.js';
import { buildListSearch } from '../../../../src/queries/listSearch.js';
import { buildOcdsRecordSearch, buildOcdsReleasePageSearch } from '../../../../src/queries/ocdsSearch.js';

describe('api queries: the OCDS searches', () => {
  it('a record package reads one PPA by id with the detail’s fields (a search: the hit names its index)', () => {
    expect(buildOcdsRecordSearch('kahone-solar')).to.deep.equal({
      query: { ids: { values: ['kahone-solar'] } },
      size: 1,
      track_total_hits: false,
      _source: [...DETAIL_SOURCE_FIELDS],
    });
  });

  it('a release package is the list’s search in cursor mode: one more record, the detail’s fields, no total', () => {
    const querystring = 'q=solar%20-coal&country=!sn&sort=name_asc&per_page=10';
    const search = buildOcdsReleasePageSearch(ocdsReleasesQuery.parse(querystring));
    const list = buildListSearch(parseListQuery(`${querystring}&cursor=*`));
    expect(search).to.deep.equal({
      ...list,
      size: 11,
      track_total_hits: false,
      _source: [...DETAIL_SOURCE_FIELDS],
    });
  });
});
