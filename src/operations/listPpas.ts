// GET /api/v1/ppas: a page of published, active PPAs, with facets and paging links.
import { API_PATHS } from '../http/apiPath.js';
import { apiResponses, badRequest, ifNoneMatch, requestIdHeader } from '../openapi/responses.js';
import { listQuery, MAX_PER_PAGE, MAX_RESULT_WINDOW } from '../params/list.js';
import { highlighterFor, presentList, PpaListSchema } from '../present/list.js';
import { PpaListItemSchema } from '../present/ppa.js';
import { planList } from '../queries/listPlan.js';
import { operation } from './operation.js';
import { changesSince, evidenceReader } from './shared.js';
import { clientKey } from '../rateLimit/clientKey.js';

export const listPpas = operation({
  path: API_PATHS.ppas,
  query: listQuery,
  doc: {
    operationId: 'listPpas',
    tags: ['ppas'],
    summary: 'List published, active PPAs',
    description:
      'Filters combine with AND. Without sort: relevance with q, recent without. Every ordering ends with slug ' +
      `ascending. per_page is at most ${MAX_PER_PAGE}; page × per_page may not exceed ${MAX_RESULT_WINDOW}. ` +
      'A page past the last is 200 with an empty data array. When q finds nothing, meta.did_you_mean offers the ' +
      'rewrite of q that finds something, if there is one.',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: apiResponses(
      { description: 'A page of PPAs with paging links.', schema: 'PpaList', link: true },
      { '400': badRequest },
    ),
  },
  schemas: { PpaListItem: PpaListItemSchema, PpaList: PpaListSchema },
  handler:
    (deps) =>
    async ({ ctx, query, answer, base, canonicalQuery }) => {
      const querystring = canonicalQuery();
      const sent = await answer(`${base} ${querystring}`, async () => {
        const since = await changesSince(deps);
        const vocabulary = deps.liveState.vocabulary();
        const plan = planList(query, vocabulary);
        // Highlights only when asked and with a q: without them nothing is computed.
        const highlight = highlighterFor(query, deps.wordForms);
        const result = await plan.run(deps.search);
        const evidence = query.evidence
          ? await evidenceReader(
              deps,
              result.response.hits.hits.map((hit) => hit._index),
            )
          : undefined;
        const { body, linkHeader } = presentList(result, {
          query,
          querystring,
          base,
          changesSince: since,
          highlight,
          evidence,
        });
        // An empty answer without its "did you mean" (made before the vocabulary was first read, or none looked
        // for under pressure) is not kept: the same request later may have one.
        const unkept =
          body.meta.total === 0 &&
          query.q !== undefined &&
          (vocabulary === undefined || result.didYouMean === null);
        return {
          body,
          found: body.meta.total,
          ...(linkHeader ? { link: linkHeader } : {}),
          ...(unkept ? { unkept: true as const } : {}),
        };
      });
      // A search with q is counted, cached answers too: an empty one is still a person who found nothing.
      if (query.q !== undefined && sent.found !== undefined) {
        deps.zeroResults.note({
          q: query.q.text,
          found: sent.found > 0,
          clientKey: clientKey(ctx.ip),
          optedOut: ctx.get('sec-gpc') === '1',
        });
      }
    },
});
