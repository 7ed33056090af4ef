// GET /api/v1/ppas/{slug}: one published PPA, active or not.
import type { DetailSource } from '../../indexContract/sourceFields.js';
import { apiPath } from '../http/apiPath.js';
import { NotFoundError } from '../http/problem.js';
import { apiResponses, badRequest, ifNoneMatch, problem, requestIdHeader } from '../openapi/responses.js';
import { parseDetailRequest, slugSchema } from '../params/detail.js';
import { PpaDetailResponseSchema, PpaDetailSchema, presentPpa } from '../present/ppa.js';
import { buildDetailLookup } from '../search/detailSearch.js';
import { operation } from './operation.js';
import { baseOf } from './shared.js';

const { description: slugDescription, ...slugPathSchema } = slugSchema;

export const getPpa = operation({
  path: apiPath('/ppas/{slug}'),
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
  handler: (deps) => async (ctx) => {
    const slug = parseDetailRequest(ctx.params.slug ?? '', ctx.querystring);
    const base = baseOf(ctx, deps);
    await deps.answer(ctx, { route: 'detail', normalized: `${base} ${slug}` }, async () => {
      const source = await deps.search.getDocument<DetailSource>(buildDetailLookup(slug));
      if (!source) throw new NotFoundError();
      return { body: { data: presentPpa(source, base) } };
    });
  },
});
