// GET /api/v1/ppas/suggest: what is typed so far (q, required) and how many names to suggest (limit).
import Type from 'typebox';
import { declareQuery, withDefault } from './declare.js';
import { HIGHLIGHT_PARAMETER } from './highlight.js';

export const MAX_SUGGEST_Q_LENGTH = 100;
export const DEFAULT_SUGGEST_LIMIT = 10;
export const MAX_SUGGEST_LIMIT = 20;

export interface SuggestQuery {
  q: string;
  limit: number;
  /** highlight=true: suggestions carry `highlights` (absent otherwise, so the response-cache key is unchanged). */
  highlight?: true;
}

/** GET /api/v1/ppas/suggest's parameters, and what the suggestions read from them. */
export const suggestQuery = declareQuery(
  {
    q: Type.String({
      minLength: 1,
      maxLength: MAX_SUGGEST_Q_LENGTH,
      description:
        'What the user has typed so far (required, trimmed, 1 to 100 characters). The last word is a prefix; one ' +
        'typo is tolerated in words of five letters or more; accents and case are ignored.',
    }),
    limit: withDefault(
      Type.Integer({
        minimum: 1,
        maximum: MAX_SUGGEST_LIMIT,
        description: `How many names, 1 to ${MAX_SUGGEST_LIMIT}.`,
      }),
      DEFAULT_SUGGEST_LIMIT,
    ),
    highlight: HIGHLIGHT_PARAMETER,
  },
  (params): SuggestQuery => ({
    q: params.q,
    limit: params.limit,
    ...(params.highlight === 'true' ? { highlight: true as const } : {}),
  }),
);

export function parseSuggestQuery(querystring: string): SuggestQuery {
  return suggestQuery.parse(querystring);
}
