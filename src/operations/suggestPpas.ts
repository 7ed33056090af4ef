// GET /api/v1/ppas/suggest: project names as the user types.
import { API_PATHS } from '../http/apiPath.js';
import { apiResponses, badRequest, ifNoneMatch, requestIdHeader } from '../openapi/responses.js';
import { suggestQuery } from '../params/suggest.js';
import {
  presentSuggestions,
  suggestHighlighterFor,
  SuggestionsSchema,
  type SuggestSource,
} from '../present/suggest.js';
import { buildSuggestSearch } from '../queries/suggestSearch.js';
import { suggestDidYouMean } from '../queries/didYouMean.js';
import { operation } from './operation.js';

export const suggestPpas = operation({
  path: API_PATHS.suggest,
  query: suggestQuery,
  notHere: 'suggestions read what is typed so far, in q',
  doc: {
    operationId: 'suggestPpas',
    tags: ['ppas'],
    summary: 'Project names as the user types, for a search box',
    description:
      'Published, active PPAs whose name matches what was typed: the last word as a prefix, one typo in words ' +
      'of five letters or more, accents and case ignored; the whole name first, then names that start with ' +
      'it. "suggest" is never looked up as a slug. When nothing is suggested, did_you_mean offers the rewrite of q ' +
      'that suggests something, if there is one. Counts against the rate limit like every /api/v1 request.',
    parameters: [ifNoneMatch, requestIdHeader],
    responses: apiResponses(
      { description: 'Suggestions, best first.', schema: 'Suggestions' },
      { '400': badRequest },
    ),
  },
  schemas: { Suggestions: SuggestionsSchema },
  handler:
    (deps) =>
    async ({ query, answer, base, canonicalQuery }) => {
      await answer(`${base} ${JSON.stringify(query)}`, async () => {
        const search = buildSuggestSearch(query);
        const highlight = suggestHighlighterFor(query, deps.wordForms);
        const startedAt = performance.now();
        const response = await deps.search.search<SuggestSource>(search);
        const vocabulary = deps.liveState.vocabulary();
        const empty = response.hits.hits.length === 0;
        // Nothing suggested: the rewrite of q that suggests something, within the same deadline, never under
        // pressure (null then).
        const didYouMean =
          empty && vocabulary
            ? await suggestDidYouMean(deps.search, query, vocabulary, startedAt)
            : undefined;
        const request = { base, querystring: canonicalQuery() };
        const body = presentSuggestions(
          response,
          base,
          query,
          highlight,
          didYouMean === undefined ? undefined : { didYouMean, request },
        );
        // An empty answer without its "did you mean" (the vocabulary not read yet, or none looked for) is not kept.
        const unkept = empty && (vocabulary === undefined || didYouMean === null);
        return { body, ...(unkept ? { unkept: true as const } : {}) };
      });
    },
});
