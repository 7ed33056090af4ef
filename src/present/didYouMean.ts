// `did_you_mean`: on an answer whose `q` found nothing, the rewrite of `q` that finds something (the list's
// meta.did_you_mean, suggest's did_you_mean), with what it finds and the same request with it; null when it was not
// looked for (under pressure: src/queries/didYouMean.ts). Absent otherwise, so an answer with results is the body it
// always was.
import { record, Type, type Static } from '../wire/bodySchema.js';

export const DidYouMeanSchema = (found: string) =>
  Type.Optional(Type.Union([DidYouMeanOffer(found), Type.Null({ description: NOT_LOOKED_FOR })]));

/**
 * null: `q` found nothing, and the rewrites were not looked for (the instance was under pressure, or their search
 * failed): the empty answer was sent at once rather than later or not at all. Ask again for one.
 */
const NOT_LOOKED_FOR =
  'q found nothing and no rewrite was looked for: the instance was busy (its searches waiting or being refused) ' +
  'or the look-up failed, and the empty answer was sent at once. The same request later may offer one.';

const DidYouMeanOffer = (found: string) =>
  record(
    {
      q: Type.String({
        minLength: 1,
        description:
          '`q` rewritten: the nearest words the index holds, a word it does not hold left out, words joined or ' +
          'split; its operators and qualifiers as written.',
      }),
      total: Type.Integer({ minimum: 1, description: found }),
      url: Type.String({ format: 'uri', description: 'The same request with that q.' }),
    },
    'Only when q found nothing and a rewrite of it finds something: what the person most likely meant (the ' +
      'fewest words changed, then the most common words).',
  );

export type DidYouMeanBody = Static<ReturnType<typeof DidYouMeanSchema>>;
