// GET /api/v1/ppas/{slug}: one published PPA, active or not.
import type { DetailSource } from '../../indexContract/sourceFields.js';
import { API_PATHS } from '../http/apiPath.js';
import { NotFoundError } from '../http/problem.js';
import { apiResponses, badRequest, ifNoneMatch, problem, requestIdHeader } from '../openapi/responses.js';
import { NO_QUERY } from '../params/declare.js';
import { detailSlug, slugSchema } from '../params/detail.js';
import { PpaDetailResponseSchema, PpaDetailSchema, presentDetail } from '../present/ppa.js';
import { buildDetailLookup } from '../queries/detailSearch.js';
import { operation } from './operation.js';
import { evidenceReader } from './shared.js';

const { description: slugDescription, ...slugPathSchema } = slugSchema;

export const getPpa = operation({
  path: API_PATHS.ppa,
  query: NO_QUERY,
  notHere: 'it takes none',
  doc: {
    operationId: 'getPpa',
    tags: ['ppas'],
    summary: 'One published PPA (active or not)',
    description: 'Takes no query parameters (any is 400). "statistics" is never looked up as a slug.',
    parameters: [
      { name: 'slug', in: 'path', required: true, description: slugDescription, schema: slugPathSchema },
      ifNoneMatch,
      requestIdHeader,
    ],
    responses: apiResponses(
      { description: 'The PPA with procurement, versions and documents.', schema: 'PpaDetailResponse' },
      {
        '400': badRequest,
        '404': problem('No published PPA has this slug (unknown and unpublished are indistinguishable).'),
      },
    ),
  },
  schemas: { PpaDetail: PpaDetailSchema, PpaDetailResponse: PpaDetailResponseSchema },
  handler:
    (deps) =>
    async ({ ctx, answer, base }) => {
      // Malformed is answered as unknown: a client cannot tell them apart, and no lookup is needed to say so.
      const slug = detailSlug(ctx.params.slug ?? '');
      await answer(`${base} ${slug}`, async () => {
        const found = await deps.search.getDocument<DetailSource>(buildDetailLookup(slug));
        if (!found) throw new NotFoundError();
        const { source, index } = found;
        // Only a flagged PPA needs its generation's fences.
        const evidence =
          (source.flags ?? []).length === 0 ? [] : (await evidenceReader(deps, [index]))(source, index);
        return { body: { data: presentDetail(source, base, evidence) } };
      });
    },
});
