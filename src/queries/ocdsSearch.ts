// The OCDS answers' searches, each the detail's or the list's with the detail's fields read: a PPA's record package
// reads one document (a search by id rather than a get, so that the hit names the live index, whose build time is
// the package's publishedDate); a release package reads the list's page, in the list's order, one record more than
// the page so that `links.next` is given only while more remain.
import { DETAIL_SOURCE_FIELDS } from '../../indexContract/sourceFields.js';
import type { SearchRequestBody } from '../gateway/gateway.js';
import type { OcdsReleasesQuery } from '../params/ocdsReleases.js';
import { buildListSearch } from './listSearch.js';

/** One PPA by slug (its _id), active or not: only published records are in the index. */
export function buildOcdsRecordSearch(slug: string): SearchRequestBody {
  return {
    query: { ids: { values: [slug] } },
    size: 1,
    track_total_hits: false,
    _source: [...DETAIL_SOURCE_FIELDS],
  };
}

/** The list's search for the page (cursor mode), without the total nobody shows, one record past the page. */
export function buildOcdsReleasePageSearch(query: OcdsReleasesQuery): SearchRequestBody {
  return {
    ...buildListSearch(query),
    size: query.perPage + 1,
    track_total_hits: false,
    _source: [...DETAIL_SOURCE_FIELDS],
  };
}
