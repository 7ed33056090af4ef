// GET /api/v1/ppas/{slug}/ocds: one published PPA (active or not) as an OCDS record package: its release as served
// now and its compiled release.
import type { DetailSource } from '../../indexContract/sourceFields.js';
import { API_PATHS } from '../http/apiPath.js';
import { NotFoundError } from '../http/problem.js';
import { apiResponses, badRequest, ifNoneMatch, problem, requestIdHeader } from '../openapi/responses.js';
import { NO_QUERY } from '../params/declare.js';
import { detailSlug, slugSchema } from '../params/detail.js';
import { ocdsRecordPackage, OcdsRecordPackageSchema } from '../present/ocdsPackage.js';
import { presentPpa, ppaUrl } from '../present/ppa.js';
import { buildOcdsRecordSearch } from '../queries/ocdsSearch.js';
import { operation } from './operation.js';
import { indexBuiltAt } from './shared.js';

const { description: slugDescription, ...slugPathSchema } = slugSchema;

export const getPpaOcds = operation({
  path: API_PATHS.ppaOcds,
  query: NO_QUERY,
  notHere: 'it takes none',
  doc: {
    operationId: 'getPpaOcds',
    tags: ['ocds'],
    summary: 'One published PPA (active or not) as an OCDS record package',
    description:
      'The PPA’s one record (docs/ocds.md): ocid, its release as served now (an id new whenever the PPA ' +
      'changes, tagged with the stages its data reaches) and its compiled release. Takes no query parameters ' +
      '(any is 400); 404 exactly where GET /api/v1/ppas/{slug} is.',
    parameters: [
      { name: 'slug', in: 'path', required: true, description: slugDescription, schema: slugPathSchema },
      ifNoneMatch,
      requestIdHeader,
    ],
    responses: apiResponses(
      { description: 'An OCDS 1.1 record package.', schema: 'OcdsRecordPackage' },
      {
        '400': badRequest,
        '404': problem('No published PPA has this slug (unknown and unpublished are indistinguishable).'),
      },
    ),
  },
  schemas: { OcdsRecordPackage: OcdsRecordPackageSchema },
  handler:
    (deps) =>
    async ({ ctx, answer, base }) => {
      const slug = detailSlug(ctx.params.slug ?? '');
      await answer(`${base} ${slug}`, async () => {
        const response = await deps.search.search<DetailSource>(buildOcdsRecordSearch(slug));
        const hit = response.hits.hits[0];
        if (!hit?._source) throw new NotFoundError();
        const body = ocdsRecordPackage(presentPpa(hit._source, base), {
          publication: deps.ocds,
          base,
          uri: `${ppaUrl(base, slug)}/ocds`,
          publishedDate: await indexBuiltAt(deps, hit._index),
        });
        return { body };
      });
    },
});
