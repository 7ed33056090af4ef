// GET /api/v1/ppas/ocds: the PPAs a list request selects, as an OCDS release package of their compiled releases,
// in the list's order, paged by cursor (links.next while more remain).
import type { DetailSource } from '../../indexContract/sourceFields.js';
import { API_PATHS } from '../http/apiPath.js';
import { apiResponses, badRequest, ifNoneMatch, requestIdHeader } from '../openapi/responses.js';
import { ocdsReleasesQuery } from '../params/ocdsReleases.js';
import { ocdsReleasePage, OcdsReleasePackageSchema } from '../present/ocdsPackage.js';
import { OcdsReleaseSchema } from '../present/ocdsRelease.js';
import { buildOcdsReleasePageSearch } from '../queries/ocdsSearch.js';
import { operation } from './operation.js';
import { indexBuiltAt } from './shared.js';

export const listPpasOcds = operation({
  path: API_PATHS.ocdsReleases,
  query: ocdsReleasesQuery,
  notHere: 'a release package pages by cursor and holds whole releases: no page, fields, facets or highlight',
  doc: {
    operationId: 'listPpasOcds',
    tags: ['ocds'],
    summary: 'The PPAs a list request selects, as an OCDS release package',
    description:
      'The compiled OCDS releases (docs/ocds.md) of exactly the PPAs GET /api/v1/ppas selects with the same ' +
      'filters, q and sort, in its order: published, active PPAs. Paged by cursor only: the first page without ' +
      'one (or cursor=*), then links.next, absent on the last page. A request that matches nothing answers a ' +
      'package with no releases (OCDS asks for at least one: such a package is not valid OCDS). publishedDate is ' +
      'when the live index was built; extensions names the project’s extension.',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: apiResponses(
      { description: 'An OCDS 1.1 release package.', schema: 'OcdsReleasePackage', link: true },
      { '400': badRequest },
    ),
  },
  schemas: { OcdsRelease: OcdsReleaseSchema, OcdsReleasePackage: OcdsReleasePackageSchema },
  handler:
    (deps) =>
    async ({ query, answer, base, canonicalQuery }) => {
      const querystring = canonicalQuery();
      await answer(`${base} ${querystring}`, async () => {
        const response = await deps.search.search<DetailSource>(buildOcdsReleasePageSearch(query));
        const hits = response.hits.hits;
        const publishedDate = await indexBuiltAt(deps, hits[0]?._index);
        const { body, link } = ocdsReleasePage(hits, {
          query,
          querystring,
          base,
          publication: deps.ocds,
          publishedDate,
        });
        return { body, link };
      });
    },
});
