// GET /api/v1/ppas/suggest: what is typed so far (q, required) and how many names to suggest (limit).
import { BadRequestError } from '../http/problem.js';
import { highlightAsked, highlightProperty, parameterDocs } from './filters.js';
import { readQueryString } from './querystring.js';
import { paramsValidator, validOnly, type ParamsSchema } from './validate.js';

export const MAX_SUGGEST_Q_LENGTH = 100;
export const DEFAULT_SUGGEST_LIMIT = 10;
export const MAX_SUGGEST_LIMIT = 20;

export interface SuggestQuery {
  q: string;
  limit: number;
  /** highlight=true: suggestions carry `highlights` (absent otherwise, so the response-cache key is unchanged). */
  highlight?: true;
}

export const suggestParamsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['q'],
  properties: {
    q: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_SUGGEST_Q_LENGTH,
      description:
        'What the user has typed so far (required, trimmed, 1 to 100 characters). The last word is a prefix; one ' +
        'typo is tolerated in words of five letters or more; accents and case are ignored.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_SUGGEST_LIMIT,
      default: DEFAULT_SUGGEST_LIMIT,
      description: `How many names, 1 to ${MAX_SUGGEST_LIMIT}.`,
    },
    highlight: highlightProperty,
  },
} satisfies ParamsSchema & { required: string[] };

export const suggestParameters = parameterDocs(suggestParamsSchema.properties, suggestParamsSchema.required);

const validator = paramsValidator(suggestParamsSchema);

export function parseSuggestQuery(querystring: string): SuggestQuery {
  const { params, problems } = validator.validate(readQueryString(querystring));
  const valid = validOnly(params, problems);
  if (problems.length > 0) throw new BadRequestError(problems);
  return {
    q: String(valid.q),
    limit: typeof valid.limit === 'number' ? valid.limit : DEFAULT_SUGGEST_LIMIT,
    ...(highlightAsked(valid) ? { highlight: true as const } : {}),
  };
}
